import { z } from 'zod';
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

/** An OpenID provider's issuer: https, or http on this machine's loopback only (a provider beside it). */
export function isAllowedIssuer(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
}

/** Single sign-on as an administrator saves it (the secret only when it changes). */
export const SsoSettingsChange = z.object({
  issuer: z.string({ error: Messages.ssoIssuerInvalid }).trim().max(500).refine(isAllowedIssuer, Messages.ssoIssuerInvalid),
  clientId: z.string({ error: Messages.ssoClientIdEmpty }).trim().min(1, Messages.ssoClientIdEmpty).max(500),
  /** Absent: keep the saved one. */
  clientSecret: z.string().trim().min(1, Messages.ssoClientSecretEmpty).max(2000).optional(),
  name: z.string({ error: Messages.ssoNameEmpty }).trim().min(1, Messages.ssoNameEmpty).max(60),
});
export type SsoSettingsChange = z.infer<typeof SsoSettingsChange>;

/** Single sign-on as the administrator sees it: never the secret, only whether one is kept. */
export const SsoSettingsView = z.object({
  /** Where the settings in force come from: saved here, the OIDC_* variables, or none (off). */
  source: z.enum(['saved', 'environment', 'none']),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  name: z.string().nullable(),
  clientSecretSet: z.boolean(),
  /** What to register at the provider as the client's redirect URI. */
  redirectUri: z.string(),
});
export type SsoSettingsView = z.infer<typeof SsoSettingsView>;
