import {
  api,
  cartItemCount,
  cartTotals,
  clearCart,
  clearSession,
  describeLine,
  escapeHtml,
  formatDate,
  formatPrice,
  readCart,
  readSession,
  renderShell,
} from './shell.js';

const FIELDS = ['fullName', 'email', 'address', 'city', 'postalCode', 'country', 'deliveryDate', 'terms'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tomorrow in the shopper's own time zone, as YYYY-MM-DD (the format of <input type="date">). */
function tomorrow() {
  const date = new Date();
  date.setDate(date.getDate() + 1);
  const pad = (value) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function isRealDate(value) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Client-side rules. The server checks these again, and also that the postal code fits the country. */
function validateField(name, values) {
  const value = typeof values[name] === 'string' ? values[name].trim() : values[name];
  switch (name) {
    case 'fullName':
      return value ? '' : 'Enter your full name';
    case 'email':
      if (!value) return 'Enter your email address';
      return EMAIL.test(value) ? '' : 'Enter a valid email address, like name@example.com';
    case 'address':
      return value ? '' : 'Enter your street address';
    case 'city':
      return value ? '' : 'Enter your city';
    case 'postalCode':
      return value ? '' : 'Enter your postal code';
    case 'country':
      return value ? '' : 'Choose a country';
    case 'deliveryDate':
      if (!value) return 'Choose a delivery date';
      if (!isRealDate(value)) return 'Enter the delivery date as YYYY-MM-DD';
      return value >= tomorrow() ? '' : 'Delivery date must be tomorrow or later';
    case 'terms':
      return value ? '' : 'You must accept the terms and conditions';
    default:
      return '';
  }
}

function main() {
  const session = readSession();
  if (!session) {
    location.replace('login.html?returnTo=checkout.html');
    return;
  }
  renderShell();

  const lines = readCart();
  if (lines.length === 0) {
    document.getElementById('checkout-empty').hidden = false;
    return;
  }
  document.getElementById('checkout-view').hidden = false;
  renderSummary(lines);

  const form = document.getElementById('checkout-form');
  const errorSummary = document.getElementById('error-summary');
  const placeOrderButton = document.getElementById('place-order');
  const dialog = createConfirmDialog(placeOrderButton);

  form.elements.email.value = session.email ?? '';
  form.elements.deliveryDate.min = tomorrow();

  const readValues = () => {
    const values = {};
    for (const name of FIELDS) {
      const field = form.elements[name];
      values[name] = field.type === 'checkbox' ? field.checked : field.value.trim();
    }
    return values;
  };

  function setFieldError(name, message) {
    const field = form.elements[name];
    const error = document.getElementById(`${name}-error`);
    error.textContent = message;
    error.hidden = !message;
    const hint = document.getElementById(`${name}-hint`);
    const describedBy = [hint?.id, message ? error.id : undefined].filter(Boolean).join(' ');
    if (describedBy) field.setAttribute('aria-describedby', describedBy);
    else field.removeAttribute('aria-describedby');
    if (message) field.setAttribute('aria-invalid', 'true');
    else field.removeAttribute('aria-invalid');
  }

  function showErrors(errors, general) {
    const invalid = FIELDS.filter((name) => errors[name]);
    for (const name of FIELDS) setFieldError(name, errors[name] ?? '');
    const problems = invalid.length;
    // Field messages are not repeated here, so each message appears once on the page.
    const lead = problems === 1 ? 'There is a problem with 1 field.' : `There are problems with ${problems} fields.`;
    const parts = [];
    if (general) parts.push(`<p>${escapeHtml(general)}</p>`);
    if (problems > 0) parts.push(`<p>${lead} Please check the highlighted fields.</p>`);
    errorSummary.innerHTML = parts.length ? `<h2>We couldn't place your order</h2>${parts.join('')}` : '';
    if (problems > 0) form.elements[invalid[0]].focus();
    else if (general) errorSummary.focus();
  }

  // Once a field has been marked invalid, fixing it clears the message straight away.
  form.addEventListener('input', (event) => revalidate(event.target));
  form.addEventListener('change', (event) => revalidate(event.target));
  function revalidate(field) {
    if (!FIELDS.includes(field.name) || field.getAttribute('aria-invalid') !== 'true') return;
    setFieldError(field.name, validateField(field.name, readValues()));
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = readValues();
    const errors = {};
    for (const name of FIELDS) {
      const message = validateField(name, values);
      if (message) errors[name] = message;
    }
    if (Object.keys(errors).length > 0) return showErrors(errors);
    showErrors({});
    dialog.open(values, placeOrder);
  });

  async function placeOrder(values) {
    const body = {
      ...values,
      items: readCart().map(({ productId, option, quantity }) => ({ productId, option, quantity })),
    };
    const response = await api('api/orders', { method: 'POST', body, token: session.token });
    if (response.ok && response.data?.orderId) {
      clearCart();
      location.assign(`confirmation.html?order=${encodeURIComponent(response.data.orderId)}`);
      return;
    }
    if (response.status === 401) {
      // The server forgets sign-ins when it restarts; the stored token is then useless.
      clearSession();
      location.assign('login.html?returnTo=checkout.html&reason=expired');
      return;
    }
    dialog.close();
    const fieldErrors = response.data?.errors ?? {};
    const hasFieldErrors = FIELDS.some((name) => fieldErrors[name]);
    const general = fieldErrors.items ?? (hasFieldErrors ? '' : (response.data?.error ?? 'We could not place your order. Please try again.'));
    showErrors(fieldErrors, general);
  }
}

function renderSummary(lines) {
  const { subtotalCents, shippingCents, totalCents } = cartTotals(lines);
  document.getElementById('checkout-items').innerHTML = lines
    .map(
      (line) =>
        `<li><span>${line.quantity} × ${escapeHtml(describeLine(line))}</span><span>${formatPrice(line.priceCents * line.quantity)}</span></li>`,
    )
    .join('');
  document.getElementById('checkout-totals').innerHTML = `
    <dt>Subtotal</dt><dd>${formatPrice(subtotalCents)}</dd>
    <dt>Shipping</dt><dd>${shippingCents === 0 ? 'Free' : formatPrice(shippingCents)}</dd>
    <dt class="total">Total</dt><dd class="total" data-testid="checkout-total">${formatPrice(totalCents)}</dd>`;
}

/**
 * The "Confirm your order" dialog. Everything behind it is made inert and Tab wraps around inside
 * it, so keyboard and screen-reader users cannot wander off while it is open.
 */
function createConfirmDialog(returnFocusTo) {
  const backdrop = document.getElementById('confirm-backdrop');
  const dialog = document.getElementById('confirm-dialog');
  const details = document.getElementById('confirm-details');
  const confirmButton = dialog.querySelector('[data-action="confirm"]');
  const cancelButton = dialog.querySelector('[data-action="cancel"]');
  const background = [document.getElementById('site-header'), document.getElementById('main'), document.getElementById('site-footer')];
  let onConfirm;
  let pendingValues;
  let busy = false;

  function open(values, confirm) {
    pendingValues = values;
    onConfirm = confirm;
    const lines = readCart();
    const count = cartItemCount(lines);
    const country = document.querySelector(`#country option[value="${CSS.escape(values.country)}"]`)?.textContent ?? values.country;
    details.innerHTML = `
      <p>You are about to order <strong>${count} ${count === 1 ? 'item' : 'items'}</strong> for <strong>${formatPrice(cartTotals(lines).totalCents)}</strong>.</p>
      <p>Delivery on <strong>${escapeHtml(formatDate(values.deliveryDate))}</strong> to ${escapeHtml(values.fullName)}, ${escapeHtml(values.address)}, ${escapeHtml(values.postalCode)} ${escapeHtml(values.city)}, ${escapeHtml(country)}.</p>`;
    setBusy(false);
    background.forEach((element) => element?.setAttribute('inert', ''));
    backdrop.hidden = false;
    // Cancel first: of the two choices it is the one that cannot do harm.
    cancelButton.focus();
  }

  function close() {
    if (backdrop.hidden) return;
    backdrop.hidden = true;
    background.forEach((element) => element?.removeAttribute('inert'));
    setBusy(false);
    returnFocusTo.focus();
  }

  function setBusy(value) {
    busy = value;
    confirmButton.disabled = value;
    cancelButton.disabled = value;
    confirmButton.textContent = value ? 'Placing order…' : 'Confirm';
    dialog.setAttribute('aria-busy', String(value));
  }

  cancelButton.addEventListener('click', close);
  confirmButton.addEventListener('click', async () => {
    if (busy) return;
    setBusy(true);
    await onConfirm(pendingValues);
  });
  backdrop.addEventListener('click', (event) => {
    if (event.target === backdrop && !busy) close();
  });
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !busy) {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [...dialog.querySelectorAll(FOCUSABLE)];
    if (focusable.length === 0) return event.preventDefault();
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });

  return { open, close };
}

main();
