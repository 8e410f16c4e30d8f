import { z } from 'zod';
import { Messages } from './messages.js';
import type { TestCase } from './report.js';

/**
 * The recorder's self-check (DESIGN §7, issue 43 item 1): after Publish the scenario is replayed
 * once on the recorded app, and the recorder says how it went before the user leaves. `commit` is
 * the publish's commit, so a page tells the check of its last Publish from an earlier one's.
 * `step` counts from 1 over the steps as the scenario runs them (a Background's first).
 */
export const RecordingCheck = z.discriminatedUnion('state', [
  z.object({ state: z.literal('checking'), commit: z.string() }),
  z.object({ state: z.literal('passed'), commit: z.string(), steps: z.number().int(), reportLink: z.string().nullable() }),
  z.object({
    state: z.literal('failed'),
    commit: z.string(),
    step: z.number().int().min(1),
    stepText: z.string(),
    reason: z.string(),
    reportLink: z.string().nullable(),
  }),
  /** The replay could not say whether the steps pass (no browser, the app or the server unreachable). */
  z.object({ state: z.literal('error'), commit: z.string(), reason: z.string(), reportLink: z.string().nullable() }),
]);
export type RecordingCheck = z.infer<typeof RecordingCheck>;

/** The cloud recorder socket's self-check event (beside `RecorderServerEvents`). */
export interface RecorderCheckEvents {
  check: (payload: RecordingCheck) => void;
}

/** A runner's failure message as one line a person reads in a panel: its first line, at most 300 characters. */
export function checkReason(message: string | undefined, fallback: string): string {
  const line =
    (message ?? '')
      .split('\n')
      .map((part) => part.trim())
      .find((part) => part !== '') ?? '';
  const text = line || fallback;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/**
 * How a replay went, from the report of the scenario it ran (`undefined`: the run reported no
 * scenario, `reason` says why). The first step that did not pass is the one flagged; a hook
 * that failed (the browser did not start) is an error, not a step of the recording.
 */
export function recordingCheckOf(
  commit: string,
  testCase: TestCase | undefined,
  reason: string | null,
  reportLink: string | null = null,
): RecordingCheck {
  if (!testCase) return { state: 'error', commit, reason: checkReason(reason ?? undefined, Messages.recorderCheckNoReport), reportLink };
  const steps = testCase.steps.filter((step) => step.type !== 'Before' && step.type !== 'After');
  const failedHook = testCase.steps.find((step) => (step.type === 'Before' || step.type === 'After') && step.result.status === 'FAILED');
  const failed = steps.findIndex((step) => step.result.status === 'FAILED' || step.result.status === 'UNDEFINED');
  if (failed >= 0) {
    const step = steps[failed]!;
    const why = step.result.status === 'UNDEFINED' ? Messages.recorderCheckUndefined : step.result.message;
    return {
      state: 'failed',
      commit,
      step: failed + 1,
      stepText: `${step.keyword.trim()} ${step.text}`,
      reason: checkReason(why, testCase.result.message ?? step.result.status),
      reportLink,
    };
  }
  if (failedHook || (testCase.result.status !== 'PASSED' && testCase.result.status !== 'FIXED_BY_AI')) {
    return {
      state: 'error',
      commit,
      reason: checkReason(failedHook?.result.message ?? testCase.result.message ?? reason ?? undefined, Messages.recorderCheckNoReport),
      reportLink,
    };
  }
  return { state: 'passed', commit, steps: steps.length, reportLink };
}

/** What a recorder shows (and the local one prints) for a check: one sentence. */
export function describeRecordingCheck(check: RecordingCheck): string {
  switch (check.state) {
    case 'checking':
      return Messages.recorderCheckRunning;
    case 'passed':
      return Messages.recorderCheckPassed(check.steps);
    case 'failed':
      return Messages.recorderCheckFailed(check.step, check.stepText, check.reason);
    case 'error':
      return Messages.recorderCheckError(check.reason);
  }
}
