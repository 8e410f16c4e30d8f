import { StorageKeys } from '../../lib/storage-keys';

/**
 * Spec 01 §4, §9: after the project is created the screen waits 30 s (10 s for the demo app)
 * before it sets the default environment and opens the dashboard, while the project's git
 * repository is prepared. It waits no longer than the repository takes (useCreateProject).
 */
export const PROJECT_CREATION_WAIT_MS = { regular: 30_000, demo: 10_000 } as const;

/**
 * The wait to use. The e2e suite shortens it by setting localStorage
 * `rehearse.projectCreationWaitMs` (a number of milliseconds) before it creates a project;
 * nothing in the app writes that key.
 */
export function projectCreationWaitMs(demo: boolean): number {
  try {
    const override = localStorage.getItem(StorageKeys.projectCreationWaitMs);
    if (override !== null && override.trim() !== '' && Number.isFinite(Number(override)) && Number(override) >= 0) {
      return Number(override);
    }
  } catch {
    // Storage unavailable: use the spec's wait.
  }
  return demo ? PROJECT_CREATION_WAIT_MS.demo : PROJECT_CREATION_WAIT_MS.regular;
}

/** Waits `ms`, or less if `signal` aborts (the user left the screen). */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
