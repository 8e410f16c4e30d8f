import { MAX_QUANTITY, SHOP_NAME, addToCart, api, escapeHtml, formatPrice, renderShell, showToast } from './shell.js';
import { artBackground, productArt } from './art.js';

renderShell();

const view = document.getElementById('product-view');
const breadcrumbCurrent = document.getElementById('breadcrumb-current');

function renderMessage(title, message) {
  document.title = `${title} · ${SHOP_NAME}`;
  breadcrumbCurrent.textContent = title;
  view.removeAttribute('aria-busy');
  view.innerHTML = `
    <div class="card empty-state">
      <h1>${escapeHtml(title)}</h1>
      <p>${escapeHtml(message)}</p>
      <a class="btn btn-primary" href="./">Back to all products</a>
    </div>`;
}

function showFieldError(field, errorElement, message) {
  errorElement.textContent = message;
  errorElement.hidden = !message;
  const describedBy = [field.dataset.hint, message ? errorElement.id : ''].filter(Boolean).join(' ');
  if (describedBy) field.setAttribute('aria-describedby', describedBy);
  else field.removeAttribute('aria-describedby');
  if (message) field.setAttribute('aria-invalid', 'true');
  else field.removeAttribute('aria-invalid');
}

function renderProduct(product) {
  const optionName = product.option.label.toLowerCase();
  document.title = `${product.name} · ${SHOP_NAME}`;
  breadcrumbCurrent.textContent = product.name;
  view.removeAttribute('aria-busy');
  view.innerHTML = `
    <article class="product-detail">
      <div class="product-art" style="${artBackground(product.art)}">${productArt(product.art, product.name)}</div>
      <div>
        <p class="product-card-category">${escapeHtml(product.category)}</p>
        <h1>${escapeHtml(product.name)}</h1>
        <p class="price" data-testid="product-price">${formatPrice(product.priceCents)}</p>
        <p class="product-description">${escapeHtml(product.description)}</p>
        ${product.inStock ? '' : '<p class="alert">Out of stock — check back soon.</p>'}
        <form id="purchase-form" class="purchase-form" novalidate>
          <div class="field">
            <label for="option">${escapeHtml(product.option.label)}</label>
            <select id="option" name="option">
              <option value="">Select a ${escapeHtml(optionName)}</option>
              ${product.option.values.map((value) => `<option>${escapeHtml(value)}</option>`).join('')}
            </select>
            <p id="option-error" class="field-error" hidden></p>
          </div>
          <div class="field">
            <label for="quantity">Quantity</label>
            <input id="quantity" name="quantity" type="number" inputmode="numeric" min="1" max="${MAX_QUANTITY}" step="1" value="1">
            <p id="quantity-error" class="field-error" hidden></p>
          </div>
          <button type="submit" class="btn btn-primary"${product.inStock ? '' : ' disabled'}>Add to cart</button>
        </form>
        <ul class="perks">
          <li>Free shipping on orders over $100</li>
          <li>Free returns within 30 days</li>
        </ul>
      </div>
    </article>`;

  const form = view.querySelector('#purchase-form');
  const select = form.elements.option;
  const quantityInput = form.elements.quantity;
  const optionError = view.querySelector('#option-error');
  const quantityError = view.querySelector('#quantity-error');

  select.addEventListener('change', () => {
    if (select.value) showFieldError(select, optionError, '');
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const option = select.value;
    const quantity = Number(quantityInput.value);
    const optionMessage = option ? '' : `Choose a ${optionName}`;
    const quantityMessage =
      Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY ? '' : `Enter a quantity from 1 to ${MAX_QUANTITY}`;
    showFieldError(select, optionError, optionMessage);
    showFieldError(quantityInput, quantityError, quantityMessage);
    if (optionMessage) return select.focus();
    if (quantityMessage) return quantityInput.focus();

    const inCart = addToCart(product, option, quantity);
    const capped = inCart === MAX_QUANTITY ? ` — that is the most one order can hold (${MAX_QUANTITY})` : '';
    showToast(`Added ${quantity} × ${product.name} (${option}) to your cart${capped}`, { href: 'cart.html', text: 'View cart' });
  });
}

async function load() {
  const id = new URLSearchParams(location.search).get('id');
  if (!id) return renderMessage('Product not found', 'No product was chosen. Pick one from the list.');
  const response = await api(`api/products/${encodeURIComponent(id)}`);
  if (response.status === 404) {
    return renderMessage('Product not found', 'We could not find that product. It may no longer be sold.');
  }
  if (!response.ok) return renderMessage('Something went wrong', response.data?.error ?? 'Please try again.');
  renderProduct(response.data);
}

load();
