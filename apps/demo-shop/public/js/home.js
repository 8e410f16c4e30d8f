import { addToCart, api, escapeHtml, formatPrice, renderShell, showToast } from './shell.js';
import { artBackground, productArt } from './art.js';

// Long enough that a fast typist does not fire a request per keystroke.
const SEARCH_DEBOUNCE_MS = 250;

renderShell();

const form = document.getElementById('search-form');
const input = document.getElementById('search');
const status = document.getElementById('product-status');
const list = document.getElementById('product-list');

let productsById = new Map();
let inFlight;
let debounceTimer;

function productCard(product) {
  const href = `product.html?id=${encodeURIComponent(product.id)}`;
  const name = escapeHtml(product.name);
  // The product's name is hidden from sight but not from the accessibility tree, so each button has
  // its own name ("Add Trail Backpack to cart"). The inner span stops flex gaps around the hidden text.
  const label = `<span>Add<span class="visually-hidden"> ${name}</span> to cart</span>`;
  const button = product.inStock
    ? `<button type="button" class="btn btn-primary btn-small" data-add="${escapeHtml(product.id)}">${label}</button>`
    : `<button type="button" class="btn btn-small" disabled>${label}</button>`;
  return `
    <li class="product-card${product.inStock ? '' : ' sold-out'}">
      <div class="product-art" style="${artBackground(product.art)}">
        ${productArt(product.art)}
        ${product.inStock ? '' : '<span class="ribbon">Out of stock</span>'}
      </div>
      <div class="product-card-body">
        <p class="product-card-category">${escapeHtml(product.category)}</p>
        <h3 class="product-card-name"><a href="${href}">${name}</a></h3>
        <div class="product-card-footer">
          <span class="price">${formatPrice(product.priceCents)}</span>
          ${button}
        </div>
      </div>
    </li>`;
}

function describeResults(count, query) {
  const noun = count === 1 ? 'product' : 'products';
  if (count === 0) return query ? `No products match “${query}”.` : 'No products found.';
  return query ? `${count} ${noun} matching “${query}”` : `${count} ${noun}`;
}

/** Keeps the address bar in step with the search, so a reload or a shared link shows the same list. */
function syncAddressBar(query) {
  const url = new URL(location.href);
  if (query) url.searchParams.set('q', query);
  else url.searchParams.delete('q');
  history.replaceState(null, '', url);
}

async function loadProducts(rawQuery) {
  const query = rawQuery.trim();
  // Responses arrive after a delay and not always in order; only the latest request may render.
  inFlight?.abort();
  const request = new AbortController();
  inFlight = request;

  list.setAttribute('aria-busy', 'true');
  status.textContent = 'Loading products…';
  syncAddressBar(query);

  let response;
  try {
    response = await api(`api/products?q=${encodeURIComponent(query)}`, { signal: request.signal });
  } catch (error) {
    if (error.name === 'AbortError') return;
    throw error;
  }
  if (request.signal.aborted) return;
  list.removeAttribute('aria-busy');
  if (!response.ok) {
    status.textContent = response.data?.error ?? 'We could not load the products. Please try again.';
    return;
  }
  const products = response.data.products;
  productsById = new Map(products.map((product) => [product.id, product]));
  list.innerHTML = products.map(productCard).join('');
  status.textContent = describeResults(products.length, query);
}

// A shopper (or a fast test) may have typed before this script ran; that wins over the address.
if (!input.value) input.value = new URLSearchParams(location.search).get('q') ?? '';
loadProducts(input.value);

input.addEventListener('input', () => {
  clearTimeout(debounceTimer);
  debounceTimer = setTimeout(() => loadProducts(input.value), SEARCH_DEBOUNCE_MS);
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearTimeout(debounceTimer);
  loadProducts(input.value);
});

list.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-add]');
  if (!button) return;
  const product = productsById.get(button.dataset.add);
  if (!product) return;
  // The list has no option picker, so it adds the first colour or size; the product page lets you choose.
  const option = product.option.values[0];
  addToCart(product, option, 1);
  showToast(`Added ${product.name} (${option}) to your cart`, { href: 'cart.html', text: 'View cart' });
});
