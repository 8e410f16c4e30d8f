import { Messages } from './messages.js';

/**
 * Why single sign-on ended without a session. The server's callback sends the browser to the
 * login page with one of these codes (`/login?sso=<code>`), never with text of its own, so a link
 * cannot make our page say what its author wants; the page shows the code's sentence.
 */
export const SSO_FAILURES = {
  failed: 'Single sign-on did not complete. Try again, or sign in with your password.',
  expired: 'The single sign-on attempt took too long or was started in another browser. Try again.',
  unverified: 'Your identity provider did not confirm your email address, so it cannot be matched to an account here.',
  closed: Messages.signupClosed,
  invite: Messages.signupNeedsInvitation,
  domains: Messages.signupDomainNotAllowed,
  disabled: Messages.accountDisabled,
} as const;

export type SsoFailure = keyof typeof SSO_FAILURES;

export function isSsoFailure(code: string | null | undefined): code is SsoFailure {
  return typeof code === 'string' && Object.hasOwn(SSO_FAILURES, code);
}

/** The web app's page the callback ends on: it takes the session token from the fragment. */
export const SSO_LANDING_PATH = '/sso';
