import { authCalls, Limits } from '@rehearse/contract';
import { api } from './api';
import { session } from './session';

/** Spec 02 §9: the activity log is flushed at 10 entries or every 10 000 ms, with up to 3 retries. */
export const ActivityLogPolicy = {
  batchSize: 10,
  flushEveryMs: 10_000,
  maxRetries: 3,
} as const;

export interface ActivityEntry {
  /** What happened, e.g. `navigate`, `project.create`, `environment.delete`. */
  type: string;
  /** Short facts about it (ids, names), never secrets or tokens. */
  detail?: Record<string, string | number | boolean | null>;
}

interface StoredEntry extends ActivityEntry {
  at: string;
  path: string;
}

let queue: StoredEntry[] = [];
let flushing = false;
let timer: ReturnType<typeof setInterval> | null = null;

async function send(batch: StoredEntry[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await api.call(authCalls.log, { body: { logs: batch as unknown as Record<string, unknown>[] } });
      return;
    } catch (error) {
      if (attempt >= ActivityLogPolicy.maxRetries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
}

/** Sends what is queued; entries that still fail after the retries are dropped (the log is best effort). */
export async function flushActivityLog(): Promise<void> {
  if (flushing || queue.length === 0) return;
  // Without a session there is no one to attribute the entries to, and the call would 401.
  if (!session.getToken() || session.getState().expired) {
    queue = [];
    return;
  }
  flushing = true;
  const batch = queue.splice(0, Limits.activityLogBatchMax);
  try {
    await send(batch);
  } catch {
    // Dropped on purpose: a failing log must never disturb the user.
  } finally {
    flushing = false;
  }
}

function ensureTimer(): void {
  if (timer !== null || typeof window === 'undefined') return;
  timer = setInterval(() => void flushActivityLog(), ActivityLogPolicy.flushEveryMs);
  window.addEventListener('pagehide', () => void flushActivityLog());
}

/** Queues one entry of the user's activity; the batch goes out at 10 entries or within 10 s. */
export function logActivity(entry: ActivityEntry): void {
  if (!session.getToken()) return;
  ensureTimer();
  queue.push({ ...entry, at: new Date().toISOString(), path: window.location.pathname });
  if (queue.length >= ActivityLogPolicy.batchSize) void flushActivityLog();
}
