import { createHash } from 'node:crypto';
import { maskDeep, Messages, type RunReport } from '@rehearse/contract';
import { displayName, type Caller, type ProjectAccess } from '../http/caller.js';
import type { DomainEventBus } from '../events/domain-events.js';
import { AppError, badRequest, conflict, notFound } from '../http/errors.js';
import { ArtifactStore } from '../storage/artifacts.js';
import type { SocketHub } from '../storage/sockets.js';
import { ArtifactUsage } from './artifact-usage.js';
import type { RunsRepo } from './runs.repo.js';

const PASSING: ReadonlySet<string> = new Set(['PASSED', 'FIXED_BY_AI']);

function screenshotIds(report: RunReport): string[] {
  const ids = new Set<string>();
  for (const testCase of report.testCases) {
    for (const step of testCase.steps) {
      for (const command of step.commands) {
        if (command.screenshotId) ids.add(command.screenshotId);
        // Self-healing's "before" picture, shown by its Code Review item.
        if (command.healing?.beforeScreenshotId) ids.add(command.healing.beforeScreenshotId);
      }
    }
    // The run's JUnit XML and cucumber messages or HTML report (`rehearse run` uploads them): the project's own, like screenshots.
    if (testCase.reportFiles?.junit) ids.add(testCase.reportFiles.junit);
    if (testCase.reportFiles?.html) ids.add(testCase.reportFiles.html);
    if (testCase.reportFiles?.messages) ids.add(testCase.reportFiles.messages);
    // Its Playwright trace, likewise.
    if (testCase.traceFileId) ids.add(testCase.traceFileId);
  }
  return [...ids];
}

/**
 * Where a run ran (spec 01/02 Run.mode): 'cloud' when the server's own job uploads it (a job key,
 * scope 'run'), 'local' for any other upload (a CLI on someone's machine or CI). The report's own
 * `mode` is the uploader's word and is not trusted for this.
 */
export function runMode(caller: Caller): 'cloud' | 'local' {
  return caller.kind === 'accessKey' && caller.scope === 'run' ? 'cloud' : 'local';
}

/** Where a run's report opens in the web app. */
export function runReportLink(publicUrl: string, projectId: string, runId: string): string {
  return `${publicUrl}/${projectId}/run-report/${runId}`;
}

/** What uploads ask of the other domains, given at construction (app.ts wires them). */
export interface RunUploadLinks {
  /** Hears `runUploaded` (the AI engine files Code Review items from healed runs). */
  events: DomainEventBus;
  /** The project's plain secret values at a branch (its test data): uploaded reports are masked with them. */
  secretValues: (caller: Caller, access: ProjectAccess, branch: string | undefined) => Promise<string[]>;
}

/**
 * What runners send: the artifacts a run names, then the run report itself (or, from an
 * execution's worker, its scenarios appended to the execution's report). Reading them back is
 * RunReportsService's and RunArtifactsService's.
 */
export class RunUploadsService {
  constructor(
    private readonly links: RunUploadLinks,
    private readonly runs: RunsRepo,
    private readonly artifacts: ArtifactStore,
    private readonly sockets: SocketHub,
    private readonly publicUrl: string,
    /** ARTIFACT_QUOTA_MB in bytes; 0 for no limit. */
    private readonly artifactQuotaBytes = 0,
  ) {}

  private readonly artifactUsage = new ArtifactUsage((projectId) => this.runs.artifactBytes(projectId));

  async uploadArtifact(projectId: string, contentType: string, base64: string, maxBytes: number): Promise<string> {
    const bytes = decodeBase64(base64);
    if (!bytes) throw badRequest(Messages.artifactNotBase64);
    if (bytes.length > maxBytes) throw badRequest(Messages.artifactTooLarge);
    const id = ArtifactStore.idOf(bytes);
    // Quota: what the project already keeps plus this, unless it keeps these very bytes already.
    // Two uploads at once may both pass a nearly full quota; it is a bound on growth, not a lock.
    const counted = this.artifactQuotaBytes > 0 && !(await this.runs.artifactOf(projectId, id));
    if (counted && (await this.artifactUsage.bytes(projectId)) + bytes.length > this.artifactQuotaBytes) {
      throw new AppError(413, Messages.artifactQuotaReached(Math.round(this.artifactQuotaBytes / 1024 / 1024)));
    }
    await this.artifacts.put(id, bytes);
    await this.runs.addArtifact(projectId, id, contentType, bytes.length);
    if (counted) this.artifactUsage.stored(projectId, bytes.length);
    return id;
  }

  reportLink(projectId: string, runId: string): string {
    return runReportLink(this.publicUrl, projectId, runId);
  }

  /** Stores a run; every screenshot it names must have been uploaded to this project first. */
  async upload(
    caller: Caller,
    access: ProjectAccess,
    input: {
      uploadKey: string;
      branch?: string | undefined;
      kind?: 'run' | 'scenario' | undefined;
      rerunOf?: string | undefined;
      appendTo?: string | undefined;
      report: RunReport;
    },
  ): Promise<{ runId: string; reportLink: string }> {
    const projectId = access.project.id;
    // Secrets the runner typed must not be served back: every value of the project's secret test data is masked before storing.
    const report = maskDeep(input.report, await this.links.secretValues(caller, access, input.branch));
    const wanted = screenshotIds(report);
    const known = await this.runs.knownArtifacts(projectId, wanted);
    const missing = wanted.find((id) => !known.has(id));
    if (missing) throw badRequest(`${Messages.artifactUnknown}${missing}`);
    if (input.appendTo) return this.append(projectId, input.appendTo, input.uploadKey, report, wanted);
    if (input.rerunOf && (await this.runs.projectOfRun(input.rerunOf)) !== projectId) throw notFound(Messages.runNotFound);
    const passed = report.testCases.filter((testCase) => PASSING.has(testCase.result.status)).length;
    const kind = input.kind ?? 'run';
    const name =
      report.name ??
      (kind === 'scenario' && report.testCases[0]
        ? report.testCases[0].scenarioName
        : `Run of ${report.startTime.slice(0, 16).replace('T', ' ')}`);
    // What a retry must repeat: the same key with another body is another report, refused.
    const uploadDigest = createHash('sha256')
      .update(JSON.stringify({ branch: input.branch, kind: input.kind, rerunOf: input.rerunOf, report }))
      .digest('hex');
    const { id, created, sameBody } = await this.runs.insertRun(
      {
        projectId,
        uploadKey: input.uploadKey,
        uploadDigest,
        userId: caller.user.id,
        username: displayName(caller),
        name,
        kind,
        mode: runMode(caller),
        branch: input.branch ?? 'main',
        envName: report.env.name,
        envBaseUrl: report.env.baseUrl,
        browser: report.browser,
        // A run passes only when every one of its scenarios passed (spec 02 §4).
        status: passed === report.testCases.length ? 'PASSED' : 'FAILED',
        totalScenarios: report.testCases.length,
        passedScenarios: passed,
        startTime: new Date(report.startTime),
        endTime: new Date(report.endTime),
        rerunOf: input.rerunOf ?? null,
      },
      report.testCases.map((testCase, position) => ({ ...testCaseRow(projectId, testCase), position })),
      wanted,
    );
    if (!sameBody) throw conflict(Messages.uploadKeyReused);
    const reportLink = this.reportLink(projectId, id);
    // A retried upload (same key) is the run already stored: its listeners heard it the first time.
    if (created) await this.links.events.emit('runUploaded', { caller, access, runId: id, branch: input.branch ?? 'main', report });
    this.sockets.emitToProject(projectId, 'upload_report', { projectId, runId: id, reportLink });
    return { runId: id, reportLink };
  }

  /** A worker's scenario joins its execution's run report (DESIGN §6: one report per execution). */
  private async append(
    projectId: string,
    runId: string,
    uploadKey: string,
    report: RunReport,
    artifactIds: string[],
  ): Promise<{ runId: string; reportLink: string }> {
    if ((await this.runs.projectOfRun(runId)) !== projectId) throw notFound(Messages.runNotFound);
    await this.runs.appendTestCases(
      runId,
      report.testCases.map((testCase, index) => ({ ...testCaseRow(projectId, testCase), appendKey: `${uploadKey}:${index}` })),
      artifactIds,
    );
    const reportLink = this.reportLink(projectId, runId);
    this.sockets.emitToProject(projectId, 'upload_report', { projectId, runId, reportLink });
    return { runId, reportLink };
  }
}

/**
 * The bytes of `text` when it is base64 (`/^[A-Za-z0-9+/]*={0,2}$/`, padded or not), else
 * undefined. Node's decoder is the check, at native speed (a regex over every character was the
 * server's hottest code during an execution, at 20 ms a scenario): it skips or stops at any
 * character outside the alphabet, so such text decodes to fewer bytes than its length promises.
 * It also takes the URL-safe alphabet, which base64 does not, and a length of 4n+1 can lose a
 * character without losing a byte: both are refused first.
 */
function decodeBase64(text: string): Buffer | undefined {
  let end = text.length;
  while (end > 0 && text.length - end < 2 && text.charCodeAt(end - 1) === EQUALS_SIGN) end--;
  if (end % 4 === 1 || text.includes('-') || text.includes('_')) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === Math.floor((end * 3) / 4) ? bytes : undefined;
}

const EQUALS_SIGN = 61;

/** A scenario of an uploaded report as the runs tables keep it: one rule for uploads and appends. */
function testCaseRow(projectId: string, testCase: RunReport['testCases'][number]) {
  return {
    projectId,
    scenarioName: testCase.scenarioName,
    featureName: testCase.featureName,
    status: testCase.result.status,
    failedStepText: testCase.failedStep === undefined ? null : (testCase.steps[testCase.failedStep]?.text ?? null),
    startTime: new Date(testCase.result.startTime),
    endTime: new Date(testCase.result.endTime),
    report: testCase,
  };
}
