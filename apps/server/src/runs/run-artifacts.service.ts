import { Messages, TestCase, TRACE_FILES_PATH, TRACE_LINK_MINUTES, TRACE_VIEWER_PATH } from '@rehearse/contract';
import type { SignedLinks } from '../crypto/signed-links.js';
import { notFound } from '../http/errors.js';
import type { ArtifactStore } from '../storage/artifacts.js';
import { renderHtmlReport } from './html-report.js';
import type { RunsRepo } from './runs.repo.js';

/** What a trace link names: the trace is served only while that scenario of that project still names it. */
export interface TraceLinkPayload {
  projectId: string;
  testCaseId: string;
  traceFileId: string;
}

/**
 * The files a stored scenario names, served back only while it names them: screenshots, the run's
 * JUnit and HTML reports, and its Playwright trace through a signed link.
 */
export class RunArtifactsService {
  constructor(
    private readonly runs: RunsRepo,
    private readonly artifacts: ArtifactStore,
    private readonly traceLinks: SignedLinks<TraceLinkPayload>,
  ) {}

  /**
   * A screenshot's (or the run's JUnit or HTML report's, or the scenario's trace's) bytes, only when
   * the scenario names it and the project uploaded it. The run's cucumber messages come back as
   * the HTML report rendered from them: that is the file they are kept for.
   */
  async screenshot(projectId: string, testCaseId: string, screenshotId: string, runId?: string) {
    const row = await this.runs.findTestCase(testCaseId);
    if (!row || row.projectId !== projectId || (runId && row.runId !== runId)) throw notFound(Messages.testCaseNotFound);
    const report = TestCase.parse(row.report);
    const named =
      report.reportFiles?.junit === screenshotId ||
      report.reportFiles?.html === screenshotId ||
      report.reportFiles?.messages === screenshotId ||
      report.traceFileId === screenshotId ||
      report.steps.some((step) =>
        step.commands.some((command) => command.screenshotId === screenshotId || command.healing?.beforeScreenshotId === screenshotId),
      );
    const artifact = named ? await this.storedArtifact(projectId, screenshotId) : undefined;
    if (!artifact) throw notFound(Messages.screenshotNotFound);
    if (report.reportFiles?.messages === screenshotId) {
      // The messages name the run's screenshots by reference: only this project's PNG artifacts resolve.
      const screenshot = async (id: string) => {
        const stored = await this.storedArtifact(projectId, id);
        return stored?.contentType === 'image/png' ? stored.bytes : undefined;
      };
      return { image: (await renderHtmlReport(artifact.bytes, screenshot)).toString('base64'), contentType: 'text/html' as const };
    }
    return { image: artifact.bytes.toString('base64'), contentType: artifact.contentType };
  }

  /** An artifact the project uploaded, with its bytes; undefined when it has no such artifact (or its bytes are gone). */
  private async storedArtifact(projectId: string, id: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
    const artifact = await this.runs.artifactOf(projectId, id);
    const bytes = artifact ? await this.artifacts.get(id) : null;
    return artifact && bytes ? { contentType: artifact.contentType, bytes } : undefined;
  }

  /**
   * A link that opens a scenario's trace in the trace viewer this server serves. The viewer's
   * service worker fetches the zip without the session, so the link itself is the credential:
   * signed, naming the project, scenario and artifact, and dead after `TRACE_LINK_MINUTES`.
   */
  async traceLink(
    projectId: string,
    testCaseId: string,
    now = new Date(),
  ): Promise<{ viewerPath: string; filePath: string; expiresAt: string }> {
    const traceFileId = await this.storedTraceOf(projectId, testCaseId);
    const expiresAt = new Date(now.getTime() + TRACE_LINK_MINUTES * 60_000);
    const filePath = `${TRACE_FILES_PATH}?${new URLSearchParams({ link: this.traceLinks.sign({ projectId, testCaseId, traceFileId }, expiresAt) }).toString()}`;
    return {
      viewerPath: `${TRACE_VIEWER_PATH}index.html?trace=${encodeURIComponent(filePath)}`,
      filePath,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** The trace zip a link names, while the link lasts and the scenario still names that trace. */
  async traceFile(link: string, now = new Date()): Promise<Buffer> {
    const named = this.traceLinks.verify(link, now);
    if (!named) throw notFound(Messages.traceLinkExpired);
    // A deleted run (or project) takes its links with it.
    const traceFileId = await this.storedTraceOf(named.projectId, named.testCaseId).catch(() => undefined);
    const bytes = traceFileId === named.traceFileId ? await this.artifacts.get(traceFileId) : null;
    if (!bytes) throw notFound(Messages.traceLinkExpired);
    return bytes;
  }

  private async storedTraceOf(projectId: string, testCaseId: string): Promise<string> {
    const row = await this.runs.findTestCase(testCaseId);
    if (!row || row.projectId !== projectId) throw notFound(Messages.testCaseNotFound);
    const { traceFileId } = TestCase.parse(row.report);
    if (!traceFileId || !(await this.runs.artifactOf(projectId, traceFileId))) throw notFound(Messages.traceNotFound);
    return traceFileId;
  }
}
