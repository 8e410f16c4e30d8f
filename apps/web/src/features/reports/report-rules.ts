import { environmentDisplayName, type Command, type NetworkEntry, type ReportStep, type WebLogEntry } from '@rehearse/contract';

/**
 * The reading rules of run and scenario reports (spec 02 §4 "Report step selection", §5 masking,
 * §8 HTTP status labels, §9 network time bar and sizes). Pure functions, so the screens and the
 * tests agree on them.
 */

/** Spec 02 §8: the label of an HTTP status in the network view; an aborted request is 'Failed'. */
export function httpStatusLabel(entry: Pick<NetworkEntry, 'status' | 'failed'>): string {
  const status = entry.status;
  if (entry.failed || status === null) return 'Failed';
  if (status >= 100 && status < 200) return 'Information';
  if (status >= 200 && status < 300) return 'Success';
  if (status >= 300 && status < 400) return 'Permanent Redirect';
  if (status >= 400 && status < 500) return 'Bad Request';
  if (status >= 500 && status < 600) return 'Bad Gateway';
  return 'Failed';
}

/** A request that failed: aborted, no answer, or a 4xx/5xx. */
export function isFailingRequest(entry: Pick<NetworkEntry, 'status' | 'failed'>): boolean {
  return Boolean(entry.failed) || entry.status === null || entry.status >= 400;
}

/** Spec 02 §9: the time bar is time/1000 s as a percentage, capped at 100. */
export function timeBarPercent(responseTimeMs: number | null): number {
  if (responseTimeMs === null) return 0;
  return Math.max(0, Math.min(100, (responseTimeMs / 1000) * 100));
}

/** Spec 02 §8/§9: durations with one decimal in seconds; no response time shows a dash. */
export function secondsText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '-';
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Spec 02 §9: sizes in kb with 2 decimals. */
export function sizeText(bytes: number | null): string {
  if (bytes === null) return '-';
  return `${(bytes / 1024).toFixed(2)} kb`;
}

/** Spec 02 §5: a secret value starting with 'mask:' shows as 'mask:****'. */
export function maskValue(value: string): string {
  return value.startsWith('mask:') ? 'mask:****' : value;
}

/** A command as the report names it: its type in words, then its element or text, then its (masked) value. */
export function commandTitle(command: Pick<Command, 'type' | 'element_name' | 'text' | 'info' | 'value'>): string {
  const what = command.element_name ?? command.text ?? command.info?.title ?? command.info?.url ?? '';
  const value = command.value ? ` "${maskValue(command.value)}"` : '';
  return `${command.type.replace(/_/g, ' ')}${what ? ` ${what}` : ''}${value}`;
}

/** Spec 02 §9: "passed / total (percent)". */
export function passRatio(passed: number, total: number): string {
  const percent = total === 0 ? 0 : Math.round((passed / total) * 100);
  return `${passed} / ${total} (${percent}%)`;
}

/** Milliseconds between two ISO times (0 when either is missing or invalid). */
export function durationMs(start: string | undefined, end: string | undefined): number {
  if (!start || !end) return 0;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** "1 m 05 s"-style run duration for the summary cards and lists. */
export function durationText(ms: number): string {
  if (ms < 60_000) return secondsText(ms);
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return `${minutes} m ${String(seconds).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} m`;
}

const SETTLED = new Set(['PASSED', 'FAILED', 'FIXED_BY_AI']);

/**
 * Spec 02 §4: the step selected first is the last passed or failed one (else the first). A step
 * that stopped the scenario, failed or undefined (issue 23: no step definition matched it), comes
 * first: after it every step is skipped, so for a failed one this is the spec's rule, and an
 * undefined one is what the reader came to see.
 */
export function defaultStepIndex(steps: Pick<ReportStep, 'result'>[]): number {
  const stopped = steps.findIndex((step) => step.result.status === 'FAILED' || step.result.status === 'UNDEFINED');
  if (stopped >= 0) return stopped;
  for (let i = steps.length - 1; i >= 0; i -= 1) if (SETTLED.has(steps[i]!.result.status)) return i;
  return 0;
}

/**
 * The API findings of a command, when it is an API request or check: only those get the "API test"
 * tab. A navigation also carries the page's HTTP status, which is not an API test (issue 23).
 */
export function apiTestInfo(command: Pick<Command, 'type' | 'info'> | undefined): NonNullable<Command['info']> | undefined {
  const info = command?.info;
  if (!info) return undefined;
  return command.type.startsWith('api') || info.tests !== undefined ? info : undefined;
}

/**
 * A URL cut for a middle ellipsis: the head shrinks with an ellipsis and the tail (the last path
 * segment with its query, at most 32 characters) always shows, so rows of one host stay apart.
 */
export function urlEllipsisParts(url: string): { head: string; tail: string } {
  const slash = url.lastIndexOf('/', url.length - 2);
  const cut = slash >= 0 && url.length - slash <= 32 ? slash : Math.max(0, url.length - 32);
  return { head: url.slice(0, cut), tail: url.slice(cut) };
}

/**
 * A Scenario Outline row's name part (issue 23): its example values as `name: value`, masked; empty
 * for a plain scenario, whose report has no parameters.
 */
export function exampleValuesText(parameters: Record<string, string>): string {
  return Object.entries(parameters)
    .map(([key, value]) => `${key}: ${maskValue(value)}`)
    .join(', ');
}

/** Spec 02 §4: the command opened first is the first non-passed one with a screenshot, else the last. */
export function defaultCommandIndex(commands: Pick<Command, 'result' | 'screenshotId'>[]): number {
  const index = commands.findIndex((c) => c.result.status !== 'PASSED' && Boolean(c.screenshotId));
  return index >= 0 ? index : Math.max(0, commands.length - 1);
}

export type DetailTab = 'screenshot' | 'network' | 'console';

/** Spec 02 §4: Network if failing requests exist, else Console if errors exist, else Screenshot. */
export function defaultTab(network: Pick<NetworkEntry, 'status' | 'failed'>[], webLog: Pick<WebLogEntry, 'type'>[]): DetailTab {
  if (network.some(isFailingRequest)) return 'network';
  if (webLog.some((entry) => entry.type === 'error')) return 'console';
  return 'screenshot';
}

/** Spec 02 §4: a failed scenario retrained by AI shows 'fixed by AI' if the retrain passed, else 'failed by AI'. */
export function aiRetrainLabel(testCase: {
  result: { status: string };
  retrainStats?: { result: string } | undefined;
}): 'fixed by AI' | 'failed by AI' | null {
  if (testCase.result.status === 'FIXED_BY_AI') return 'fixed by AI';
  if (!testCase.retrainStats) return null;
  return testCase.retrainStats.result === 'PASSED' ? 'fixed by AI' : 'failed by AI';
}

/**
 * Spec 02 §9: environment names lose their last 5 characters (".json") for display; a name given
 * as the file's path (`environments/staging.json`, as `rehearse run --env` takes it) loses the folder too.
 */
export function envDisplayName(name: string): string {
  return environmentDisplayName(name.replace(/^environments\//, ''));
}

/**
 * Spec 01 §9 and 02 §9: report time ranges (day options 1, 7, 14, 365), kept in local storage as
 * durationIndex (default 0). `phrase` names a range inside a sentence ("No reports in …").
 */
export const TIME_RANGES = [
  { label: 'Last 24 hours', days: 1, phrase: 'the last 24 hours' },
  { label: 'Last week', days: 7, phrase: 'the last week' },
  { label: 'Last 2 weeks', days: 14, phrase: 'the last 2 weeks' },
  { label: 'All', days: 365, phrase: 'the last year' },
] as const;

/** The index of the widest range, 'All' (the last). */
export const ALL_TIME_RANGE_INDEX = 3;

/** Spec 02 §9: search debounce. */
export const SEARCH_DEBOUNCE_MS = 500;
