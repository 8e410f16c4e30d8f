import { api, readSession, renderShell, writeSession } from './shell.js';

renderShell();

const form = document.getElementById('login-form');
const errorRegion = document.getElementById('login-error');
const notice = document.getElementById('login-notice');
const submitButton = form.querySelector('button[type="submit"]');
const params = new URLSearchParams(location.search);

/** Only pages of this shop, so that a crafted link cannot send a freshly signed-in shopper elsewhere. */
function safeReturnTo(value) {
  return value && /^[a-z-]+\.html(\?[^#]*)?$/.test(value) ? value : './';
}

const returnTo = safeReturnTo(params.get('returnTo'));

if (params.get('reason') === 'expired') {
  notice.textContent = 'Your session has expired. Please sign in again.';
  notice.hidden = false;
} else if (returnTo.startsWith('checkout.html')) {
  notice.textContent = 'Sign in to continue to checkout.';
  notice.hidden = false;
} else if (readSession()) {
  notice.textContent = `You are already signed in as ${readSession().name}.`;
  notice.hidden = false;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  errorRegion.textContent = '';
  const email = form.elements.email.value.trim();
  const password = form.elements.password.value;
  if (!email || !password) {
    errorRegion.textContent = 'Enter your email and password';
    (email ? form.elements.password : form.elements.email).focus();
    return;
  }

  submitButton.disabled = true;
  submitButton.textContent = 'Signing in…';
  const response = await api('api/login', { method: 'POST', body: { email, password } });
  if (response.ok && response.data?.ok) {
    writeSession({ name: response.data.name, email: response.data.email, token: response.data.token });
    location.assign(returnTo);
    return;
  }
  submitButton.disabled = false;
  submitButton.textContent = 'Sign in';
  errorRegion.textContent = response.data?.error ?? 'Sign-in failed. Please try again.';
  form.elements.password.value = '';
  form.elements.password.focus();
});

submitButton.disabled = false;
