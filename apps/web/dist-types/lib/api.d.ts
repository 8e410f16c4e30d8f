/** The one api-client of the web app; every call goes through it. */
export declare const api: import("@rehearse/api-client").ApiClient;
/** The message to show for a failed call: the server's own words when it gave some. */
export declare function errorMessage(error: unknown): string;
/** Retrying cannot fix a 4xx: the request itself is wrong, or the session is over. */
export declare function isClientError(error: unknown): boolean;
