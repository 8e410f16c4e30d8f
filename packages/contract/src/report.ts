import { z } from 'zod';
import { IsoTimestamp } from './validation.js';

/** Scenario and step outcomes (DESIGN §5); FIXED_BY_AI is a failure that healing turned into a pass. */
export const RunStatus = z.enum(['PASSED', 'FAILED', 'UNDEFINED', 'SKIPPED', 'FIXED_BY_AI']);
export type RunStatus = z.infer<typeof RunStatus>;

/** Report times: ISO date-times, so the server never stores an invalid date (a 400, not a 500). */
const Timestamp = IsoTimestamp;

export const Outcome = z.object({
  status: RunStatus,
  message: z.string().optional(),
  startTime: Timestamp,
  endTime: Timestamp,
});
export type Outcome = z.infer<typeof Outcome>;

/** One request the page made (spec 02 §3 "Network log"). */
export const NetworkEntry = z.object({
  requestUrl: z.string(),
  method: z.string(),
  /** HTTP status, or null when the request failed or was aborted. */
  status: z.number().int().nullable(),
  statusText: z.string().optional(),
  /** Milliseconds, or null when no response came. */
  responseTime: z.number().nullable(),
  /** Bytes of the response body, or null when unknown. */
  size: z.number().nullable(),
  /** Playwright's resource type: document, xhr, fetch, script, image, ... */
  type: z.string(),
  failed: z.boolean().optional(),
  failureText: z.string().optional(),
  startTime: Timestamp.optional(),
});
export type NetworkEntry = z.infer<typeof NetworkEntry>;

/** A console message (spec 02 §3 "Web log"). */
export const WebLogEntry = z.object({
  type: z.enum(['warning', 'error']),
  text: z.string(),
  time: Timestamp,
});
export type WebLogEntry = z.infer<typeof WebLogEntry>;

/**
 * What self-healing did for a command whose element no recorded candidate found (DESIGN §8,
 * §11). `classification` is the same enum as the AI calls' FailureClass; only 'locator' failures
 * are healed. The server turns healed entries with a `source` into Code Review items.
 */
export const CommandHealing = z.object({
  classification: z.enum(['locator', 'data', 'server', 'unknown']),
  healed: z.boolean(),
  /** 0..1, how sure the engine is that the new element is the recorded one. */
  confidence: z.number(),
  /** Why it healed or did not, in a sentence. */
  reason: z.string(),
  element: z.string(),
  /** The locator file entry the element came from. */
  source: z.object({ file: z.string(), key: z.string() }).optional(),
  /** New locator candidates (LocatorCandidate objects), best first, each verified to find the element alone. */
  locators: z.array(z.record(z.string(), z.unknown())).optional(),
  /** The healed element's fingerprint (ElementFingerprint). */
  fingerprint: z.record(z.string(), z.unknown()).optional(),
  /** The page when every recorded candidate had failed. */
  beforeScreenshotId: z.string().optional(),
  /** The best-scoring elements of the page that were weighed, best first (at most 3). */
  considered: z
    .array(z.object({ element: z.string().max(300), confidence: z.number() }))
    .max(3)
    .optional(),
});
export type CommandHealing = z.infer<typeof CommandHealing>;

/** One browser or API action inside a step (spec 02 §3 "Command", DESIGN §11). */
export const Command = z.object({
  /** click_element, fill_element, navigate, verify_page_contains_text, api_request, ... */
  type: z.string(),
  element_name: z.string().optional(),
  /** Typed or selected value; secrets as `secret:****`, masked values as `mask:****`. */
  value: z.string().optional(),
  text: z.string().optional(),
  screenshotId: z.string().optional(),
  reasoning: z.string().optional(),
  payload: z.object({ type: z.enum(['yaml', 'json', 'xml', 'text']), content: z.string() }).optional(),
  info: z
    .object({
      selectors: z.array(z.string()).optional(),
      url: z.string().optional(),
      title: z.string().optional(),
      value: z.string().optional(),
      expectedValue: z.string().optional(),
      tests: z.array(z.object({ name: z.string(), passed: z.boolean(), message: z.string().optional() })).optional(),
      testsPassed: z.number().int().optional(),
      status: z.number().int().optional(),
      statusText: z.string().optional(),
      data: z.unknown().optional(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  /** Which locator candidates were tried, in order, and what happened. */
  locatorLog: z.array(z.string()).optional(),
  healing: CommandHealing.optional(),
  result: Outcome,
});
export type Command = z.infer<typeof Command>;

export const StepType = z.enum(['Context', 'Action', 'Outcome', 'Conjunction', 'Unknown', 'Before', 'After']);

export const ReportStep = z.object({
  keyword: z.string(),
  type: StepType,
  text: z.string(),
  /** Where the step is written in its feature file (hooks have none). */
  line: z.number().int().optional(),
  result: Outcome,
  commands: z.array(Command),
  networkData: z.array(NetworkEntry),
  webLog: z.array(WebLogEntry),
  ariaSnapshot: z.string().optional(),
  evaluation: z.object({ reasoning: z.string() }).optional(),
});
export type ReportStep = z.infer<typeof ReportStep>;

/** One scenario run (spec 02 §3 "Report test case", DESIGN §11). */
export const TestCase = z.object({
  id: z.string(),
  scenarioName: z.string(),
  featureName: z.string(),
  uri: z.string(),
  tags: z.array(z.string()),
  result: Outcome,
  parameters: z.record(z.string(), z.string()),
  steps: z.array(ReportStep),
  env: z.object({ name: z.string(), baseUrl: z.string() }),
  webLog: z.array(WebLogEntry),
  networkLog: z.array(NetworkEntry),
  initialAriaSnapshot: z.string().optional(),
  traceFileId: z.string().optional(),
  /** Index of the first failed step, when one failed. */
  failedStep: z.number().int().optional(),
  analysis: z.union([z.string(), z.object({ tag: z.string() }).catchall(z.unknown())]).optional(),
  analysis_issue: z.string().optional(),
  rerunId: z.string().optional(),
  retrainStats: z.object({ result: z.string(), upload_id: z.string().optional() }).optional(),
  /** How many times the scenario ran (`rehearse run --retry N`); absent when it ran once. */
  attempts: z.number().int().min(2).optional(),
  /** It failed, then passed on a retry. */
  flaky: z.boolean().optional(),
  /**
   * Artifact ids of the JUnit XML and of the cucumber report of the run that produced this test
   * case: its messages (`messages`, NDJSON, which the server renders as cucumber's HTML report on
   * download) or, as runners before it uploaded, the HTML page itself (`html`).
   */
  reportFiles: z.object({ junit: z.string().optional(), html: z.string().optional(), messages: z.string().optional() }).optional(),
});
export type TestCase = z.infer<typeof TestCase>;

/** What the runner produces for one `rehearse run` and uploads (or writes with --out). */
export const RunReport = z.object({
  name: z.string().optional(),
  env: z.object({ name: z.string(), baseUrl: z.string() }),
  startTime: Timestamp,
  endTime: Timestamp,
  mode: z.enum(['local', 'cloud']),
  browser: z.string(),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }),
  testCases: z.array(TestCase),
});
export type RunReport = z.infer<typeof RunReport>;
