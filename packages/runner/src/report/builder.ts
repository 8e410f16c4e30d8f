import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { runCucumber } from '@cucumber/cucumber/api';
import {
  BUILT_IN_STEP_PATTERNS,
  stepTextProblem,
  suggestSteps,
  type Command,
  type NetworkEntry,
  type ReportStep,
  type RunReport,
  type RunStatus,
  type TestCase,
  type WebLogEntry,
} from '@rehearse/contract';
import {
  MediaTypes,
  type AriaAttachment,
  type CommandAttachment,
  type NetworkAttachment,
  type ScenarioAttachment,
  type TraceAttachment,
  type WebLogAttachment,
} from '../attachments.js';
import { TRACE_EXTENSION, type ArtifactStore } from './artifacts.js';

/** A cucumber message, typed by the cucumber the runner uses (not by whichever @cucumber/messages is hoisted). */
export type Envelope = Parameters<NonNullable<Parameters<typeof runCucumber>[2]>>[0];
type Timestamp = NonNullable<Envelope['testRunStarted']>['timestamp'];
type Pickle = NonNullable<Envelope['pickle']>;
type TestCaseMessage = NonNullable<Envelope['testCase']>;
type StepResult = NonNullable<Envelope['testStepFinished']>['testStepResult'];

/** Everything about the run the messages do not carry. */
export interface RunContext {
  env: { name: string; baseUrl: string };
  browser: string;
  viewport: { width: number; height: number };
  mode: 'local' | 'cloud';
  name?: string;
}

interface StepState {
  startTime?: string;
  endTime?: string;
  result?: StepResult;
  commands: Command[];
  networkData: NetworkEntry[];
  webLog: WebLogEntry[];
  ariaSnapshot?: string;
}

interface Attempt {
  testCaseId: string;
  /** 0 for the first try; `--retry` adds more. */
  attempt: number;
  startTime: string;
  steps: Map<string, StepState>;
  /** Requests and console lines from before the first step; shown with the first step. */
  early: { networkData: NetworkEntry[]; webLog: WebLogEntry[] };
  scenario?: ScenarioAttachment;
  initialAriaSnapshot?: string;
  traceFileId?: string;
}

interface GherkinStep {
  keyword: string;
  keywordType?: string;
  /** Where the step is written in its feature file. */
  line: number;
}

interface ExampleRow {
  header: string[];
  values: string[];
}

const toIso = (timestamp: Timestamp) => new Date(timestamp.seconds * 1000 + Math.floor(timestamp.nanos / 1e6)).toISOString();

/** Cucumber's step statuses in the report's terms: pending and ambiguous steps fail a scenario. */
function statusOf(result: StepResult): RunStatus {
  switch (result.status as string) {
    case 'PASSED':
      return 'PASSED';
    case 'UNDEFINED':
      return 'UNDEFINED';
    case 'SKIPPED':
    case 'UNKNOWN':
      return 'SKIPPED';
    default:
      return 'FAILED';
  }
}

function messageOf(result: StepResult): string | undefined {
  const status = result.status as string;
  if (status === 'PENDING') return 'The step is pending (its definition returned "pending")';
  if (status === 'AMBIGUOUS') return result.message ?? 'More than one step definition matches this step';
  const exception = result.exception;
  if (exception?.message)
    return exception.type && exception.type !== 'Error' ? `${exception.type}: ${exception.message}` : exception.message;
  return result.message;
}

/** A step text with `mask:` values a feature spells out hidden like the report hides them. */
export function hideMaskedLiterals(text: string): string {
  return text.replace(/(["'])mask:.*?\1/g, '$1mask:****$1').replace(/(^|\s)mask:\S+/g, '$1mask:****');
}

/**
 * Turns cucumber's message stream into the run report (spec 02 §3): test cases → steps → commands,
 * with network and console entries per step. Screenshots go to the artifact store as they arrive.
 */
export class ReportBuilder {
  private readonly documents = new Map<string, { featureName: string; steps: Map<string, GherkinStep>; rows: Map<string, ExampleRow> }>();
  private readonly pickles = new Map<string, Pickle>();
  private readonly testCases = new Map<string, TestCaseMessage>();
  private readonly suggestions = new Map<string, string>();
  /** The project's own cucumber-expression steps, offered beside the built-in ones for an undefined step. */
  private readonly ownPatterns: string[] = [];
  private readonly attempts = new Map<string, Attempt>();
  private readonly finished: TestCase[] = [];
  private readonly runErrors: string[] = [];
  private startTime: string | undefined;
  private endTime: string | undefined;
  /** What the first scenario ran against; plain cucumber-js has no other source for it. */
  private firstScenario: ScenarioAttachment | undefined;

  constructor(
    private readonly context: RunContext,
    private readonly artifacts: ArtifactStore,
    /** Called as each scenario's final attempt ends. */
    private readonly onTestCase?: (testCase: TestCase) => void,
  ) {}

  /** Feeds one message. */
  add(envelope: Envelope): void {
    if (envelope.gherkinDocument) this.addDocument(envelope.gherkinDocument);
    else if (envelope.pickle) this.pickles.set(envelope.pickle.id, envelope.pickle);
    else if (envelope.testCase) this.testCases.set(envelope.testCase.id, envelope.testCase);
    else if (envelope.stepDefinition) {
      const pattern = envelope.stepDefinition.pattern;
      if (String(pattern.type) === 'CUCUMBER_EXPRESSION') this.ownPatterns.push(pattern.source);
    } else if (envelope.suggestion) {
      const code = envelope.suggestion.snippets[0]?.code;
      if (code) this.suggestions.set(envelope.suggestion.pickleStepId, code);
    } else if (envelope.testRunStarted) this.startTime = toIso(envelope.testRunStarted.timestamp);
    else if (envelope.testCaseStarted) {
      const started = envelope.testCaseStarted;
      this.attempts.set(started.id, {
        testCaseId: started.testCaseId,
        attempt: started.attempt,
        startTime: toIso(started.timestamp),
        steps: new Map(),
        early: { networkData: [], webLog: [] },
      });
    } else if (envelope.testStepStarted) {
      const started = envelope.testStepStarted;
      const step = this.step(started.testCaseStartedId, started.testStepId);
      if (step) step.startTime = toIso(started.timestamp);
    } else if (envelope.testStepFinished) {
      const done = envelope.testStepFinished;
      const step = this.step(done.testCaseStartedId, done.testStepId);
      if (step) {
        step.endTime = toIso(done.timestamp);
        step.result = done.testStepResult;
      }
    } else if (envelope.attachment) this.addAttachment(envelope.attachment);
    else if (envelope.testCaseFinished) {
      const done = envelope.testCaseFinished;
      const attempt = this.attempts.get(done.testCaseStartedId);
      this.attempts.delete(done.testCaseStartedId);
      if (!attempt || done.willBeRetried) return;
      const testCase = this.toTestCase(done.testCaseStartedId, attempt, toIso(done.timestamp));
      if (!testCase) return;
      this.finished.push(testCase);
      this.onTestCase?.(testCase);
    } else if (envelope.testRunHookFinished) {
      const result = envelope.testRunHookFinished.result;
      if (statusOf(result) === 'FAILED') this.runErrors.push(`A BeforeAll/AfterAll hook failed: ${messageOf(result) ?? 'no message'}`);
    } else if (envelope.testRunFinished) {
      this.endTime = toIso(envelope.testRunFinished.timestamp);
      const finished = envelope.testRunFinished;
      if (finished.exception?.message) this.runErrors.push(finished.exception.message);
      else if (finished.message && !finished.success) this.runErrors.push(finished.message);
    }
  }

  /** Problems outside any scenario (a failed BeforeAll, a crash); they fail the run too. */
  get errors(): readonly string[] {
    return this.runErrors;
  }

  /** The report so far (complete once cucumber has finished). */
  build(): RunReport {
    const now = new Date().toISOString();
    return {
      ...(this.context.name ? { name: this.context.name } : {}),
      env: this.firstScenario?.env ?? this.context.env,
      startTime: this.startTime ?? now,
      endTime: this.endTime ?? now,
      mode: this.context.mode,
      browser: this.firstScenario?.browser ?? this.context.browser,
      viewport: this.firstScenario?.viewport ?? this.context.viewport,
      testCases: [...this.finished],
    };
  }

  private addDocument(document: NonNullable<Envelope['gherkinDocument']>): void {
    const steps = new Map<string, GherkinStep>();
    const rows = new Map<string, ExampleRow>();
    type Child = NonNullable<NonNullable<typeof document.feature>['children']>[number];
    const visit = (children: readonly Child[]) => {
      for (const child of children) {
        const holder = child.scenario ?? child.background;
        for (const step of holder?.steps ?? [])
          steps.set(step.id, { keyword: step.keyword.trim(), keywordType: step.keywordType, line: step.location.line });
        for (const examples of child.scenario?.examples ?? []) {
          const header = examples.tableHeader?.cells.map((cell) => cell.value) ?? [];
          for (const row of examples.tableBody) rows.set(row.id, { header, values: row.cells.map((cell) => cell.value) });
        }
        if (child.rule) visit(child.rule.children);
      }
    };
    visit(document.feature?.children ?? []);
    this.documents.set(document.uri ?? '', { featureName: document.feature?.name ?? '', steps, rows });
  }

  private step(testCaseStartedId: string, testStepId: string): StepState | undefined {
    const attempt = this.attempts.get(testCaseStartedId);
    if (!attempt) return undefined;
    let step = attempt.steps.get(testStepId);
    if (!step) {
      step = { commands: [], networkData: [], webLog: [] };
      attempt.steps.set(testStepId, step);
    }
    return step;
  }

  private addAttachment(attachment: NonNullable<Envelope['attachment']>): void {
    const attemptId = attachment.testCaseStartedId;
    const attempt = attemptId ? this.attempts.get(attemptId) : undefined;
    if (!attempt || !attemptId) return;
    const own = attachment.testStepId ? this.step(attemptId, attachment.testStepId) : undefined;
    const json = () => JSON.parse(attachment.body) as unknown;
    switch (attachment.mediaType) {
      case MediaTypes.screenshot:
        this.artifacts.put(Buffer.from(attachment.body, (attachment.contentEncoding as string) === 'BASE64' ? 'base64' : 'utf8'));
        return;
      case MediaTypes.command:
        own?.commands.push(json() as CommandAttachment);
        return;
      case MediaTypes.network: {
        const { testStepId, entries } = json() as NetworkAttachment;
        (testStepId ? this.step(attemptId, testStepId) : attempt.early)?.networkData.push(...entries);
        return;
      }
      case MediaTypes.webLog: {
        const { testStepId, entries } = json() as WebLogAttachment;
        (testStepId ? this.step(attemptId, testStepId) : attempt.early)?.webLog.push(...entries);
        return;
      }
      case MediaTypes.aria: {
        const aria = json() as AriaAttachment;
        if (aria.kind === 'initial') attempt.initialAriaSnapshot ??= aria.snapshot;
        else if (aria.testStepId) this.step(attemptId, aria.testStepId)!.ariaSnapshot = aria.snapshot;
        return;
      }
      case MediaTypes.trace: {
        // The file is this run's own (support/trace.ts); it moves into the artifacts, content-addressed.
        const { file } = json() as TraceAttachment;
        if (!existsSync(file)) return;
        attempt.traceFileId = this.artifacts.put(readFileSync(file), TRACE_EXTENSION);
        rmSync(path.dirname(file), { recursive: true, force: true });
        return;
      }
      case MediaTypes.scenario:
        attempt.scenario = json() as ScenarioAttachment;
        this.firstScenario ??= attempt.scenario;
        return;
      default:
      // Other attachments (a user's own logs) are not part of the report.
    }
  }

  /**
   * What to do about a step nothing matches: the closest phrasings that run as they are (built-in
   * or the project's own, with the step's values), and only when none is close, cucumber's snippet
   * to implement it in code.
   */
  private undefinedStepMessage(text: string, pickleStepId: string, where: string): string {
    const problem = stepTextProblem(text);
    const said = `Undefined step: "${text}" (${where})${problem ? `: ${problem}` : ''}`;
    const closest = suggestSteps(text, [...BUILT_IN_STEP_PATTERNS, ...this.ownPatterns]);
    if (closest.length > 0) return `${said}. Did you mean: ${closest.join(' | ')}`;
    const snippet = this.suggestions.get(pickleStepId);
    return `${said}${snippet && !problem ? `. No step reads like it; implement it with:\n${snippet}` : ''}`;
  }

  private toTestCase(id: string, attempt: Attempt, endTime: string): TestCase | undefined {
    const testCase = this.testCases.get(attempt.testCaseId);
    const pickle = testCase && this.pickles.get(testCase.pickleId);
    if (!testCase || !pickle) return undefined;
    const document = this.documents.get(pickle.uri);
    const pickleSteps = new Map(pickle.steps.map((step) => [step.id, step]));
    const firstPickleStep = testCase.testSteps.findIndex((step) => step.pickleStepId);
    const steps: ReportStep[] = [];
    for (const [index, testStep] of testCase.testSteps.entries()) {
      const state = attempt.steps.get(testStep.id) ?? { commands: [], networkData: [], webLog: [] };
      const result = state.result;
      const status = result ? statusOf(result) : 'SKIPPED';
      const outcome = {
        status,
        ...(result && messageOf(result) ? { message: messageOf(result) } : {}),
        startTime: state.startTime ?? attempt.startTime,
        endTime: state.endTime ?? state.startTime ?? attempt.startTime,
      };
      const pickleStep = testStep.pickleStepId ? pickleSteps.get(testStep.pickleStepId) : undefined;
      if (!pickleStep) {
        // Hooks are plumbing; one only shows when it failed, or when it ran commands of its own.
        if (status !== 'FAILED' && state.commands.length === 0) continue;
        const before = firstPickleStep === -1 || index < firstPickleStep;
        steps.push({
          keyword: before ? 'Before' : 'After',
          type: before ? 'Before' : 'After',
          text: status === 'FAILED' ? 'Failed hook' : `${before ? 'Before' : 'After'} hook`,
          result: outcome,
          commands: state.commands,
          networkData: state.networkData,
          webLog: state.webLog,
          ...(state.ariaSnapshot ? { ariaSnapshot: state.ariaSnapshot } : {}),
        });
        continue;
      }
      const gherkin = document?.steps.get(pickleStep.astNodeIds[0] ?? '');
      const text = hideMaskedLiterals(pickleStep.text);
      const commands = [...state.commands];
      if (status === 'UNDEFINED') {
        const message = this.undefinedStepMessage(text, pickleStep.id, `${pickle.uri}${gherkin ? `:${gherkin.line}` : ''}`);
        outcome.message = message;
        commands.push({
          type: 'undefined_step',
          text,
          result: { status: 'FAILED', message, startTime: outcome.startTime, endTime: outcome.endTime },
        });
      }
      const isFirst = steps.every((step) => step.type === 'Before');
      steps.push({
        keyword: gherkin?.keyword ?? '*',
        type: toStepType(gherkin?.keywordType ?? pickleStep.type),
        text,
        ...(gherkin ? { line: gherkin.line } : {}),
        result: outcome,
        commands,
        networkData: isFirst ? [...attempt.early.networkData, ...state.networkData] : state.networkData,
        webLog: isFirst ? [...attempt.early.webLog, ...state.webLog] : state.webLog,
        ...(state.ariaSnapshot ? { ariaSnapshot: state.ariaSnapshot } : {}),
      });
    }
    const failedIndex = steps.findIndex((step) => step.result.status === 'FAILED' || step.result.status === 'UNDEFINED');
    const failed = failedIndex === -1 ? undefined : steps[failedIndex];
    const has = (status: RunStatus) => steps.some((step) => step.result.status === status);
    const plainStatus: RunStatus = has('FAILED') ? 'FAILED' : has('UNDEFINED') ? 'UNDEFINED' : has('SKIPPED') ? 'SKIPPED' : 'PASSED';
    // AI recovery (DESIGN §11): a scenario that passed only because an element was healed is
    // FIXED_BY_AI ('fixed by AI'); one that failed although recovery tried is 'failed by AI'.
    const healings = steps.flatMap((step) => step.commands.flatMap((command) => (command.healing ? [command.healing] : [])));
    const fixedByAi = plainStatus === 'PASSED' && healings.some((healing) => healing.healed);
    const status: RunStatus = fixedByAi ? 'FIXED_BY_AI' : plainStatus;
    const retrainStats = fixedByAi
      ? { result: 'passed' }
      : plainStatus === 'FAILED' && healings.length > 0
        ? { result: 'failed' }
        : undefined;
    // Only a final attempt becomes a test case: earlier ones failed (cucumber retries nothing else).
    const attempts = attempt.attempt + 1;
    return {
      id,
      scenarioName: pickle.name,
      featureName: document?.featureName ?? '',
      uri: pickle.uri,
      tags: pickle.tags.map((tag) => tag.name),
      result: {
        status,
        ...(failed?.result.message ? { message: failed.result.message } : {}),
        startTime: attempt.startTime,
        endTime,
      },
      parameters: this.parametersOf(pickle, document?.rows),
      steps,
      env: attempt.scenario?.env ?? this.context.env,
      webLog: steps.flatMap((step) => step.webLog),
      networkLog: steps.flatMap((step) => step.networkData),
      ...(attempt.initialAriaSnapshot ? { initialAriaSnapshot: attempt.initialAriaSnapshot } : {}),
      ...(attempt.traceFileId ? { traceFileId: attempt.traceFileId } : {}),
      ...(failedIndex === -1 ? {} : { failedStep: failedIndex }),
      ...(retrainStats ? { retrainStats } : {}),
      ...(attempts > 1 ? { attempts, ...(status === 'PASSED' || status === 'FIXED_BY_AI' ? { flaky: true } : {}) } : {}),
    };
  }

  /** A Scenario Outline's example row as name → value. */
  private parametersOf(pickle: Pickle, rows: Map<string, ExampleRow> | undefined): Record<string, string> {
    const row = pickle.astNodeIds.map((id) => rows?.get(id)).find(Boolean);
    if (!row) return {};
    return Object.fromEntries(row.header.map((name, index) => [name, hideMaskedLiterals(row.values[index] ?? '')]));
  }
}

function toStepType(keywordType: string | undefined): ReportStep['type'] {
  switch (keywordType) {
    case 'Context':
    case 'Action':
    case 'Outcome':
    case 'Conjunction':
      return keywordType;
    default:
      return 'Unknown';
  }
}
