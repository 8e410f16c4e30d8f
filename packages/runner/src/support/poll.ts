/** Waits between checks, like Playwright's own polling: quick at first, then every 500 ms. */
const DELAYS_MS = [0, 50, 100, 250, 500];

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `check` until it returns a value other than undefined or `timeoutMs` passes; then returns
 * undefined. `check` runs at least once, and once more at the deadline.
 */
export async function poll<T>(timeoutMs: number, check: (attempt: number) => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const result = await check(attempt);
    if (result !== undefined) return result;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(DELAYS_MS[attempt] ?? 500, left));
  }
}
