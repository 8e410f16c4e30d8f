import { MASKED_VALUE } from './secrets.js';
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
  /** Largest text file the workspace accepts through the API, in characters. */
  workspaceFileMax: 1_000_000,
  scenarioTextMax: 200_000,
  featureNameMax: 80,
  scenarioNameMax: 80,
  /** How long a worker lets one execution scenario run before it stops it. */
  executionScenarioTimeoutMs: 15 * 60_000,
  /** How long a worker may take to download a scenario's workspace before running it. */
  executionPullAllowanceMs: 5 * 60_000,
  /**
   * How long the access key made for one local recorder launch works (issue 18): long enough for
   * a recording session of a working day (publishing uses it at the end), short enough that a
   * command left in a shell history is soon worth nothing.
   */
  recorderLaunchKeyHours: 8,
} as const;

/** What the API shows instead of a secret or totp value; sent back unchanged, it keeps the stored value. */
export const MASKED_SECRET = `secret:${MASKED_VALUE}`;

/** One day in milliseconds: licence, session, retention and schedule arithmetic count in whole days. */
export const DAY_MS = 86_400_000;

/** Whole days a licence has left, as the API reports them; the UI shows this plus one (spec 01 §4). */
export function licenceDaysLeft(expiresAt: Date, now: Date = new Date()): number {
  const msLeft = expiresAt.getTime() - now.getTime();
  return msLeft <= 0 ? 0 : Math.floor(msLeft / DAY_MS);
}
