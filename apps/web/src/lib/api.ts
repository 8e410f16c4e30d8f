import { ApiError, createApiClient } from '@rehearse/api-client';
import { session } from './session';

const PROJECT_ID_IN_PATH = /^\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i;

/**
 * The project the user works in is the one in the address bar (`/{projectId}/...`); reading it
 * from there keeps the project-id header right during navigation without a second store.
 */
function projectIdFromLocation(): string | null {
  return PROJECT_ID_IN_PATH.exec(window.location.pathname)?.[1] ?? null;
}

/** The one api-client of the web app; every call goes through it. */
export const api = createApiClient({
  getToken: session.getToken,
  getProjectId: projectIdFromLocation,
  // Any 401 on a signed-in call ends the session: the Session Expired dialog opens.
  onUnauthorized: () => session.markExpired(),
});

/** The message to show for a failed call: the server's own words when it gave some. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

/**
 * Spec 02 §8, report fetch ('Error' or 'Internal error'): a refusal keeps the server's words (a
 * run that does not exist, no access); a server fault or a lost connection reads 'Internal error'.
 */
export function reportFetchFailure(error: unknown, internal: string): string {
  return isClientError(error) ? errorMessage(error) : internal;
}

/** Retrying cannot fix a 4xx: the request itself is wrong, or the session is over. */
export function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.httpStatus >= 400 && error.httpStatus < 500;
}
