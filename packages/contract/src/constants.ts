/** Business constants of the specification (01 §9, 02 §9) that the server and the web app share. */
export const Limits = {
  trialDays: 14,
  defaultBranch: 'main',
  defaultMaxExecutionThreads: 2,
  projectNameMax: 80,
  accessKeyNameMax: 64,
  maxConcurrentCloudSessions: 2,
  environmentNameMax: 32,
  activityLogBatchMax: 100,
  passwordMin: 8,
  passwordMax: 128,
} as const;

/** Whole days a licence has left, as the API reports them; the UI shows this plus one (spec 01 §4). */
export function licenceDaysLeft(expiresAt: Date, now: Date = new Date()): number {
  const msLeft = expiresAt.getTime() - now.getTime();
  return msLeft <= 0 ? 0 : Math.floor(msLeft / 86_400_000);
}
