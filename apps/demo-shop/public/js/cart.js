import {
  MAX_QUANTITY,
  cartItemCount,
  cartLineKey,
  cartTotals,
  describeLine,
  escapeHtml,
  formatPrice,
  readCart,
  renderShell,
  writeCart,
} from './shell.js';
import { artBackground, productArt } from './art.js';

renderShell();

const view = document.getElementById('cart-view');
const title = document.getElementById('cart-title');
const announcer = document.getElementById('cart-status');

function summaryRows(lines) {
  const { subtotalCents, shippingCents, totalCents } = cartTotals(lines);
  const count = cartItemCount(lines);
  return `
    <dt>Subtotal (${count} ${count === 1 ? 'item' : 'items'})</dt><dd>${formatPrice(subtotalCents)}</dd>
    <dt>Shipping</dt><dd>${shippingCents === 0 ? 'Free' : formatPrice(shippingCents)}</dd>
    <dt class="total">Total</dt><dd class="total" data-testid="cart-total">${formatPrice(totalCents)}</dd>`;
}

function lineRow(line, index) {
  const description = escapeHtml(describeLine(line));
  const href = `product.html?id=${encodeURIComponent(line.productId)}`;
  return `
    <tr data-key="${escapeHtml(cartLineKey(line))}">
      <th scope="row">
        <div class="cart-product">
          <div class="product-art" style="${artBackground(line.art)}">${productArt(line.art)}</div>
          <div>
            <a href="${href}">${escapeHtml(line.name)}</a>
            <span class="line-option">${escapeHtml(line.optionLabel ?? 'Option')}: ${escapeHtml(line.option)}</span>
          </div>
        </div>
      </th>
      <td data-label="Price">${formatPrice(line.priceCents)}</td>
      <td data-label="Quantity">
        <label class="visually-hidden" for="quantity-${index}">Quantity of ${description}</label>
        <input class="qty-input" id="quantity-${index}" type="number" inputmode="numeric" min="1" max="${MAX_QUANTITY}" step="1" value="${line.quantity}">
      </td>
      <td data-label="Total" class="line-total">${formatPrice(line.priceCents * line.quantity)}</td>
      <td><button type="button" class="btn-link" data-remove>Remove<span class="visually-hidden"> ${description}</span></button></td>
    </tr>`;
}

function render() {
  const lines = readCart();
  if (lines.length === 0) {
    view.innerHTML = `
      <div class="card empty-state">
        <h2>Your cart is empty</h2>
        <p>Find something you like and add it to your cart.</p>
        <a class="btn btn-primary" href="./">Continue shopping</a>
      </div>`;
    return;
  }
  view.innerHTML = `
    <div class="two-column">
      <table class="cart-table">
        <caption class="visually-hidden">Items in your cart</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Price</th>
            <th scope="col">Quantity</th>
            <th scope="col">Total</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>${lines.map(lineRow).join('')}</tbody>
      </table>
      <aside class="card summary-card" aria-labelledby="cart-summary-title">
        <h2 id="cart-summary-title">Order summary</h2>
        <dl class="summary-list" id="cart-summary">${summaryRows(lines)}</dl>
        <a class="btn btn-primary btn-block" href="checkout.html">Proceed to checkout</a>
        <p class="summary-note"><a href="./">Continue shopping</a></p>
      </aside>
    </div>`;
}

function findLine(lines, row) {
  return lines.find((line) => cartLineKey(line) === row.dataset.key);
}

// Updated in place rather than re-rendered, so focus stays in the field the shopper is editing.
view.addEventListener('change', (event) => {
  const input = event.target.closest('.qty-input');
  if (!input) return;
  const row = input.closest('tr');
  const lines = readCart();
  const line = findLine(lines, row);
  if (!line) return render();
  const wanted = Math.round(Number(input.value));
  line.quantity = Number.isFinite(wanted) ? Math.min(MAX_QUANTITY, Math.max(1, wanted)) : line.quantity;
  input.value = String(line.quantity);
  writeCart(lines);
  row.querySelector('.line-total').textContent = formatPrice(line.priceCents * line.quantity);
  view.querySelector('#cart-summary').innerHTML = summaryRows(lines);
  announcer.textContent = `Quantity of ${describeLine(line)} is now ${line.quantity}. Total ${formatPrice(cartTotals(lines).totalCents)}.`;
});

view.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-remove]');
  if (!button) return;
  const lines = readCart();
  const line = findLine(lines, button.closest('tr'));
  if (!line) return render();
  writeCart(lines.filter((candidate) => candidate !== line));
  render();
  announcer.textContent = `Removed ${describeLine(line)} from your cart.`;
  // The button that had focus is gone; the heading is a predictable place to continue from.
  title.focus();
});

render();
