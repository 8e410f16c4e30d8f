import type { RunReport, RunStatus } from '@rehearse/contract';

/** A scenario counts as passed only when it PASSED (or was fixed); anything else fails the run. */
export function isPassed(status: RunStatus): boolean {
  return status === 'PASSED' || status === 'FIXED_BY_AI';
}

/** PASSED or FAILED for the whole run: it passes only when every scenario passed (spec 02 §4). */
export function runStatus(report: RunReport): 'PASSED' | 'FAILED' {
  return report.testCases.every((testCase) => isPassed(testCase.result.status)) ? 'PASSED' : 'FAILED';
}
