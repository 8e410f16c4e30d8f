/** localStorage key of the bearer session token returned by signup and login. */
export declare const TOKEN_STORAGE_KEY = "rehearse.token";
export interface SessionState {
    token: string | null;
    /** A call answered 401 while signed in: the Session Expired dialog is open. */
    expired: boolean;
    /** The user signed out on purpose (here or in another tab): sign-in needs no callbackUrl. */
    signedOut: boolean;
}
/** The browser session: the token kept in localStorage and whether it has expired. */
export declare const session: {
    getToken: () => string | null;
    getState: () => SessionState;
    subscribe(listener: () => void): () => void;
    /** Starts a session with a token from signup or login. */
    signIn(token: string): void;
    /** Marks the start of a deliberate sign-out, so the logout call's own 401 is not an expiry. */
    beginSignOut(): void;
    /** Forgets the token. */
    signOut(): void;
    /**
     * Drops the dead token from storage but leaves the page as it is under the Session Expired
     * dialog; the reload that follows starts signed out, with a callbackUrl back to this page.
     */
    discardExpiredToken(): void;
    /**
     * A 401 arrived. Only a caller that sent a token has lost a session; a 401 without one (a wrong
     * password on the sign-in page) is an ordinary error the form shows.
     */
    markExpired(): void;
};
/** Re-renders when the token or the expired flag changes. */
export declare function useSession(): SessionState;
