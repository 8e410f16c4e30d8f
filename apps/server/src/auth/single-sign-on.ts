import { Messages, SSO_FAILURES, SSO_LANDING_PATH, type SsoFailure } from '@rehearse/contract';
import * as oidc from 'openid-client';
import { SignedLinks } from '../crypto/signed-links.js';
import type { Settings } from '../env.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import type { SessionService } from './session.service.js';
import type { SsoConfig, SsoSettings } from './sso-settings.js';

/** The cookie that carries one attempt's state, nonce and PKCE verifier from start to callback. */
export const SSO_COOKIE = 'rehearse_sso';
const SSO_COOKIE_PATH = '/api/auth/sso';
/** An attempt the user does not finish at their provider within this time starts again. */
const ATTEMPT_MS = 10 * 60_000;

interface Attempt {
  state: string;
  nonce: string;
  verifier: string;
  callbackUrl: string;
}

/** Where a browser goes next, and the cookie header to set on the way. */
export interface SsoRedirect {
  location: string;
  setCookie: string;
}

/** The sign-up policy's refusals, by their sentence, as the login page's codes. */
const POLICY_FAILURES: Record<string, SsoFailure> = {
  [Messages.signupClosed]: 'closed',
  [Messages.signupNeedsInvitation]: 'invite',
  [Messages.signupDomainNotAllowed]: 'domains',
  [Messages.accountDisabled]: 'disabled',
};

interface SsoLogger {
  warn(details: object, message: string): void;
}

/**
 * Single sign-on with the team's identity provider (OpenID Connect, authorization code with PKCE,
 * through `openid-client`). The attempt's secrets travel in a signed, HttpOnly cookie scoped to
 * the callback, so any API replica can finish what another began. Accounts are matched by an
 * email the provider marks verified; the sign-up policy decides about new ones
 * (`SessionService.signInWithIdentity`). The browser lands on the web app's `/sso` page with the
 * session token in the fragment (never sent to a server, never logged), or on the login page with
 * a failure code.
 */
export class SingleSignOn {
  /** The provider's metadata, by the configuration it was discovered with. */
  private discovery: { key: string; configuration: Promise<oidc.Configuration> } | undefined;
  private readonly attempts: SignedLinks<Attempt>;

  constructor(
    private readonly settings: Pick<Settings, 'secretKey' | 'publicUrl'>,
    private readonly configs: Pick<SsoSettings, 'current' | 'redirectUri'>,
    private readonly sessions: Pick<SessionService, 'signInWithIdentity'>,
    private readonly log: SsoLogger,
  ) {
    this.attempts = new SignedLinks<Attempt>(settings.secretKey, 'single sign-on attempt');
  }

  async config(): Promise<{ enabled: boolean; name: string }> {
    const { config } = await this.configs.current();
    return { enabled: config !== undefined, name: config?.name ?? '' };
  }

  private get redirectUri(): string {
    return this.configs.redirectUri;
  }

  /** The configuration in force; a 404 with its sentence when single sign-on is off. */
  private async inForce(): Promise<SsoConfig> {
    const { config } = await this.configs.current();
    if (!config) throw notFound(Messages.ssoNotConfigured);
    return config;
  }

  /** The provider's metadata, discovered once per configuration (again after a failure). */
  private discovered(config: SsoConfig): Promise<oidc.Configuration> {
    const key = JSON.stringify([config.issuer, config.clientId, config.clientSecret]);
    if (this.discovery?.key !== key) {
      const url = new URL(config.issuer);
      // Only loopback issuers may be http (isAllowedIssuer): a provider on the same machine.
      const options = url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
      const configuration = oidc.discovery(url, config.clientId, config.clientSecret, undefined, options);
      const entry = { key, configuration };
      this.discovery = entry;
      configuration.catch(() => {
        if (this.discovery === entry) this.discovery = undefined;
      });
    }
    return this.discovery.configuration;
  }

  /** Whether `config`'s issuer answers as an OpenID provider: before an administrator's change is saved. */
  async verify(config: SsoConfig): Promise<void> {
    try {
      await this.discovered(config);
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 200) : String(error);
      throw badRequest(Messages.ssoProviderUnreachable.replace('{reason}', reason));
    }
  }

  /** Begins an attempt: the provider's authorization URL, and the cookie that remembers it. */
  async start(callbackUrl: string | undefined): Promise<SsoRedirect> {
    const config = await this.inForce();
    const configuration = await this.discovered(config).catch((error: unknown) => {
      this.log.warn({ err: error }, 'single sign-on: the identity provider could not be discovered');
      throw new AppError(503, SSO_FAILURES.failed);
    });
    const attempt: Attempt = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      callbackUrl: safeCallback(callbackUrl),
    };
    const location = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(attempt.verifier),
      code_challenge_method: 'S256',
    });
    return { location: location.href, setCookie: this.cookie(this.attempts.sign(attempt, new Date(Date.now() + ATTEMPT_MS)), ATTEMPT_MS) };
  }

  /**
   * Finishes an attempt from the provider's redirect (`query`, as received). Always answers a
   * redirect: to the web app's landing page with a session, or to the login page with a code.
   */
  async finish(query: Record<string, string>, cookieHeader: string | undefined): Promise<SsoRedirect> {
    const clear = this.cookie('', 0);
    const failure = (code: SsoFailure): SsoRedirect => ({ location: `/login?sso=${code}`, setCookie: clear });
    const attempt = this.attempts.verify(readCookie(cookieHeader, SSO_COOKIE) ?? '');
    if (!attempt) return failure('expired');
    let claims: oidc.IDToken | undefined;
    try {
      const configuration = await this.discovered(await this.inForce());
      const current = new URL(this.redirectUri);
      for (const [name, value] of Object.entries(query)) current.searchParams.set(name, value);
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: attempt.verifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      this.log.warn({ err: error }, 'single sign-on did not complete');
      return failure('failed');
    }
    const email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email || claims?.email_verified !== true) return failure('unverified');
    const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 80) : fallback);
    try {
      const { token } = await this.sessions.signInWithIdentity({
        email,
        firstName: text(claims.given_name, text(claims.name, email.split('@')[0]!)),
        lastName: text(claims.family_name, '-'),
      });
      const fragment = new URLSearchParams({ token, callbackUrl: attempt.callbackUrl });
      return { location: `${SSO_LANDING_PATH}#${fragment.toString()}`, setCookie: clear };
    } catch (error) {
      const code = error instanceof AppError ? POLICY_FAILURES[error.message] : undefined;
      if (code) return failure(code);
      throw error;
    }
  }

  private cookie(value: string, maxAgeMs: number): string {
    const secure = this.settings.publicUrl.startsWith('https:') ? '; Secure' : '';
    // Lax: the provider's redirect back is a top-level GET, which carries it; nothing else does.
    return `${SSO_COOKIE}=${value}; Path=${SSO_COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure}`;
  }
}

/** Only a path of this web app (not `//host`, not a URL): the landing page navigates there. */
function safeCallback(callbackUrl: string | undefined): string {
  return callbackUrl && /^\/(?![/\\])/.test(callbackUrl) ? callbackUrl : '/';
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
