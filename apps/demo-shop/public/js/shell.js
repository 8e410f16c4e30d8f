// Shared by every page: the header and footer, the signed-in session, the cart kept in
// localStorage, money formatting, the toast and a small JSON fetch helper.

const CART_KEY = 'demo-shop.cart';
const SESSION_KEY = 'demo-shop.session';

export const SHOP_NAME = 'Trailhead Supply';
export const MAX_QUANTITY = 10;
// Mirrors the server's rule so that the cart can show the shipping the order will be charged.
const FREE_SHIPPING_FROM_CENTS = 10000;
const SHIPPING_CENTS = 595;

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatPrice(cents) {
  return money.format(cents / 100);
}

/** Formats a YYYY-MM-DD date as the calendar day it names, whatever the browser's time zone. */
export function formatDate(isoDate) {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return date.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

export function escapeHtml(value) {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function readStored(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

// ---- Cart ----

function isCartLine(line) {
  return (
    line !== null &&
    typeof line === 'object' &&
    typeof line.productId === 'string' &&
    typeof line.name === 'string' &&
    typeof line.option === 'string' &&
    Number.isInteger(line.priceCents) &&
    Number.isInteger(line.quantity) &&
    line.quantity >= 1
  );
}

export function readCart() {
  const lines = readStored(CART_KEY);
  return Array.isArray(lines) ? lines.filter(isCartLine) : [];
}

export function writeCart(lines) {
  localStorage.setItem(CART_KEY, JSON.stringify(lines));
  updateCartBadge();
}

export function clearCart() {
  writeCart([]);
}

export function cartLineKey(line) {
  return `${line.productId}::${line.option}`;
}

export function describeLine(line) {
  return `${line.name} (${line.option})`;
}

/** Adds to an existing line for the same product and option; returns the quantity now in the cart. */
export function addToCart(product, option, quantity) {
  const lines = readCart();
  const existing = lines.find((line) => line.productId === product.id && line.option === option);
  let total;
  if (existing) {
    existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + quantity);
    total = existing.quantity;
  } else {
    total = Math.min(MAX_QUANTITY, quantity);
    lines.push({
      productId: product.id,
      name: product.name,
      optionLabel: product.option.label,
      option,
      priceCents: product.priceCents,
      art: product.art,
      quantity: total,
    });
  }
  writeCart(lines);
  return total;
}

export function cartItemCount(lines = readCart()) {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

export function cartTotals(lines = readCart()) {
  const subtotalCents = lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
  const shippingCents = subtotalCents === 0 || subtotalCents >= FREE_SHIPPING_FROM_CENTS ? 0 : SHIPPING_CENTS;
  return { subtotalCents, shippingCents, totalCents: subtotalCents + shippingCents };
}

// ---- Session ----

export function readSession() {
  const session = readStored(SESSION_KEY);
  return session && typeof session.token === 'string' && typeof session.name === 'string' ? session : null;
}

export function writeSession(session) {
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

export function clearSession() {
  localStorage.removeItem(SESSION_KEY);
}

// ---- API ----

/**
 * Fetches JSON from the shop's API, relative to the page so that the shop works under any prefix.
 * Resolves to { ok, status, data }; a network failure becomes status 0. Aborts still reject.
 */
export async function api(path, { method = 'GET', body, token, signal } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    return { ok: false, status: 0, data: { error: 'We could not reach the shop. Check your connection and try again.' } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: `Unexpected response from the shop (${response.status})` };
  }
  return { ok: response.ok, status: response.status, data };
}

// ---- Page shell ----

const LOGO = `<svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
  <path d="M3 27 13 9l5 9 3-5 8 14z" fill="currentColor"/><circle cx="23" cy="7" r="3" fill="#f2a65a"/></svg>`;

function currentPage() {
  const file = location.pathname.split('/').pop();
  return file === '' ? 'index.html' : file;
}

/** Where the sign-in page should send the shopper back to once signed in. */
function returnToHere() {
  const page = currentPage();
  if (page === 'login.html' || page === 'index.html') return '';
  return `${page}${location.search}`;
}

function updateCartBadge() {
  const badge = document.querySelector('[data-testid="cart-count"]');
  if (badge) badge.textContent = String(cartItemCount());
}

function renderHeader() {
  const header = document.getElementById('site-header');
  if (!header) return;
  const page = currentPage();
  const session = readSession();
  const returnTo = returnToHere();
  const signInHref = returnTo ? `login.html?returnTo=${encodeURIComponent(returnTo)}` : 'login.html';
  const current = (name) => (page === name ? ' aria-current="page"' : '');
  header.innerHTML = `
    <p class="demo-banner">This is a demo store for trying Rehearse. Nothing is for sale and no orders are shipped.</p>
    <div class="container header-inner">
      <a class="brand" href="./">${LOGO}<span>${SHOP_NAME}</span></a>
      <nav class="main-nav" aria-label="Main">
        <ul>
          <li><a href="./"${current('index.html')}>Products</a></li>
          <li><a class="cart-link" href="cart.html"${current('cart.html')}>Cart <span class="badge" data-testid="cart-count">${cartItemCount()}</span><span class="visually-hidden"> items</span></a></li>
        </ul>
      </nav>
      <div class="account">
        ${
          session
            ? `<span class="account-name">Signed in as <strong>${escapeHtml(session.name)}</strong></span>
               <button type="button" class="btn btn-ghost btn-small" id="sign-out">Sign out</button>`
            : `<a class="btn btn-ghost btn-small" href="${escapeHtml(signInHref)}"${current('login.html')}>Sign in</a>`
        }
      </div>
    </div>`;
  header.querySelector('#sign-out')?.addEventListener('click', async () => {
    const token = session?.token;
    clearSession();
    // Forgetting the token server-side is a courtesy; signing out must not wait on it or fail with it.
    if (token) api('api/logout', { method: 'POST', body: {}, token }).catch(() => {});
    location.assign('./');
  });
}

function renderFooter() {
  const footer = document.getElementById('site-footer');
  if (!footer) return;
  footer.innerHTML = `
    <div class="container footer-inner">
      <p>© ${SHOP_NAME} — a demo shop bundled with Rehearse.</p>
      <p>Free shipping on orders over ${formatPrice(FREE_SHIPPING_FROM_CENTS)}.</p>
    </div>`;
}

let toastRegion;
let toastTimer;

/** Shows a short confirmation that screen readers announce politely; it hides itself after a few seconds. */
export function showToast(message, link) {
  if (!toastRegion) return;
  clearTimeout(toastTimer);
  toastRegion.innerHTML = `
    <div class="toast">
      <svg class="toast-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><circle cx="10" cy="10" r="10" fill="currentColor"/><path d="m5.5 10.5 3 3 6-7" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>
      <p class="toast-message">${escapeHtml(message)}</p>
      ${link ? `<a class="toast-link" href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a>` : ''}
      <button type="button" class="toast-close" aria-label="Dismiss notification">×</button>
    </div>`;
  toastRegion.querySelector('.toast-close').addEventListener('click', hideToast);
  toastTimer = setTimeout(hideToast, 6000);
}

function hideToast() {
  clearTimeout(toastTimer);
  if (toastRegion) toastRegion.innerHTML = '';
}

export function renderShell() {
  renderHeader();
  renderFooter();
  // The live region has to exist before anything is written into it, or it is not announced.
  toastRegion = document.createElement('div');
  toastRegion.className = 'toast-region';
  toastRegion.setAttribute('aria-live', 'polite');
  toastRegion.setAttribute('data-testid', 'toast');
  document.body.append(toastRegion);
  // Another tab may change the cart or sign in or out.
  window.addEventListener('storage', (event) => {
    if (event.key === CART_KEY) updateCartBadge();
    if (event.key === SESSION_KEY) renderHeader();
  });
}
