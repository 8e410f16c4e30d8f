/** localStorage keys of the web app (kept apart so tests can import them without the DOM). */
export const StorageKeys = {
  /** The bearer session token returned by signup and login. */
  token: 'rehearse.token',
} as const;
