import { SHOP_NAME, api, escapeHtml, formatDate, formatPrice, renderShell } from './shell.js';

renderShell();

const view = document.getElementById('confirmation-view');

function renderMessage(title, message) {
  document.title = `${title} · ${SHOP_NAME}`;
  view.removeAttribute('aria-busy');
  view.innerHTML = `
    <div class="card empty-state">
      <h1>${escapeHtml(title)}</h1>
      <p>${escapeHtml(message)}</p>
      <a class="btn btn-primary" href="./">Back to the shop</a>
    </div>`;
}

function renderOrder(order) {
  const { customer } = order;
  document.title = `Order ${order.orderId} · ${SHOP_NAME}`;
  view.removeAttribute('aria-busy');
  view.innerHTML = `
    <section class="confirmation-hero">
      <svg class="success-mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <circle cx="32" cy="32" r="32" fill="currentColor" opacity=".12"/>
        <circle cx="32" cy="32" r="22" fill="currentColor"/>
        <path d="m22 33 7 7 14-15" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>
      </svg>
      <h1>Thank you for your order</h1>
      <p class="lead">Your order number is <strong class="order-number" data-testid="order-number">${escapeHtml(order.orderId)}</strong>.
        We have sent a confirmation to ${escapeHtml(customer.email)}.</p>
    </section>
    <div class="two-column">
      <section class="card" aria-labelledby="order-items-title">
        <h2 id="order-items-title">Order summary</h2>
        <ul class="summary-items">
          ${order.items
            .map(
              (item) => `<li><span>${item.quantity} × ${escapeHtml(item.name)} (${escapeHtml(item.option)})</span>
                <span>${formatPrice(item.lineTotalCents)}</span></li>`,
            )
            .join('')}
        </ul>
        <dl class="summary-list">
          <dt>Subtotal</dt><dd>${formatPrice(order.subtotalCents)}</dd>
          <dt>Shipping</dt><dd>${order.shippingCents === 0 ? 'Free' : formatPrice(order.shippingCents)}</dd>
          <dt class="total">Total paid</dt><dd class="total">${formatPrice(order.totalCents)}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="delivery-title">
        <h2 id="delivery-title">Delivery</h2>
        <div class="details-grid">
          <div>
            <h3>Arriving</h3>
            <p>${escapeHtml(formatDate(order.deliveryDate))}</p>
          </div>
          <div>
            <h3>Ship to</h3>
            <address>${escapeHtml(customer.fullName)}<br>${escapeHtml(customer.address)}<br>
              ${escapeHtml(customer.postalCode)} ${escapeHtml(customer.city)}<br>${escapeHtml(customer.countryName)}</address>
          </div>
        </div>
        <a class="btn btn-primary btn-block" href="./">Continue shopping</a>
      </section>
    </div>`;
}

async function load() {
  const orderId = new URLSearchParams(location.search).get('order');
  if (!orderId) return renderMessage('Order not found', 'No order number was given.');
  const response = await api(`api/orders/${encodeURIComponent(orderId)}`);
  if (response.status === 404) {
    return renderMessage('Order not found', `We could not find order ${orderId}. Orders are kept only until the demo server restarts.`);
  }
  if (!response.ok) return renderMessage('Something went wrong', response.data?.error ?? 'Please try again.');
  renderOrder(response.data);
}

load();
