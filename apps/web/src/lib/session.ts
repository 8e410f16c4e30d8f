import { useSyncExternalStore } from 'react';
import { StorageKeys } from './storage-keys';

const TOKEN_STORAGE_KEY = StorageKeys.token;

export interface SessionState {
  token: string | null;
  /** A call answered 401 while signed in: the Session Expired dialog is open. */
  expired: boolean;
  /** The user signed out on purpose (here or in another tab): sign-in needs no callbackUrl. */
  signedOut: boolean;
}

const listeners = new Set<() => void>();
let state: SessionState = { token: readToken(), expired: false, signedOut: false };
/** While the user signs out on purpose, a 401 from the logout call is expected, not an expiry. */
let signingOut = false;

function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
    else localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lasts for this tab only.
  }
}

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** The browser session: the token kept in localStorage and whether it has expired. */
export const session = {
  getToken: (): string | null => state.token,
  getState: (): SessionState => state,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Starts a session with a token from signup or login. */
  signIn(token: string): void {
    writeToken(token);
    signingOut = false;
    setState({ token, expired: false, signedOut: false });
  },
  /** Marks the start of a deliberate sign-out, so the logout call's own 401 is not an expiry. */
  beginSignOut(): void {
    signingOut = true;
  },
  /** Forgets the token. */
  signOut(): void {
    writeToken(null);
    signingOut = false;
    setState({ token: null, expired: false, signedOut: true });
  },
  /**
   * Drops the dead token from storage but leaves the page as it is under the Session Expired
   * dialog; the reload that follows starts signed out, with a callbackUrl back to this page.
   */
  discardExpiredToken(): void {
    writeToken(null);
  },
  /**
   * A 401 arrived. Only a caller that sent a token has lost a session; a 401 without one (a wrong
   * password on the sign-in page) is an ordinary error the form shows.
   */
  markExpired(): void {
    if (signingOut || !state.token || state.expired) return;
    setState({ ...state, expired: true });
  },
};

/** Re-renders when the token or the expired flag changes. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}

// Another tab signing in or out changes the token under us; follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== TOKEN_STORAGE_KEY && event.key !== null) return;
    const token = readToken();
    if (token !== state.token) setState({ token, expired: false, signedOut: token === null });
  });
}
