/** A failure the caller can act on; mapped to `{status:false, error}` with its HTTP status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent as Retry-After: when the caller may try again (429 and 503 answers). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string) => new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);

/** A 429 whose sentence names the wait (`{n}` seconds), with the same wait in Retry-After. */
export const tooManyRequests = (template: string, seconds: number) => {
  const wait = Math.max(1, Math.ceil(seconds));
  return new AppError(429, template.replace('{n}', String(wait)), wait);
};
