import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, type ApiClient } from '@rehearse/api-client';
import { ARTIFACT_MAX_BYTES, runnerCalls, type RunReport } from '@rehearse/contract';
import { ArtifactStore, TRACE_EXTENSION } from '../report/artifacts.js';
import { REPORT_FILES } from '../report/write.js';

const ATTEMPTS = 3;
const ARTIFACT_CONCURRENCY = 4;

/** Network failures, 429 and 5xx are worth another try; the upload key makes a repeat harmless. */
function retriable(error: unknown): boolean {
  if (error instanceof ApiError) return error.httpStatus === 429 || error.httpStatus >= 500;
  return error instanceof TypeError;
}

async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= ATTEMPTS || !retriable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * 3 ** (attempt - 1)));
    }
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

export interface UploadOptions {
  client: ApiClient;
  projectId: string;
  branch?: string;
  report: RunReport;
  outDir: string;
  /** An execution's run to append to, and the key that stores these scenarios there once. */
  appendTo?: string | undefined;
  uploadKey?: string | undefined;
}

/** The cucumber reports kept with an uploaded run, by their field in `TestCase.reportFiles`. */
const KEPT_FILES = [
  { key: 'junit', file: REPORT_FILES.junit, contentType: 'application/xml' },
  { key: 'html', file: REPORT_FILES.html, contentType: 'text/html' },
] as const;

/**
 * Uploads a run: each screenshot once (`uploadArtifact`), the JUnit XML and HTML report cucumber
 * wrote into `outDir` (named by every test case's `reportFiles`; `notKept` lists those too large),
 * then the report (`uploadRun`) under one
 * random upload key, so a retried upload is stored once. Screenshot ids the server answers with
 * replace the local ones in the uploaded report.
 */
export async function uploadRun({
  client,
  projectId,
  branch,
  report,
  outDir,
  appendTo,
  uploadKey: givenKey,
}: UploadOptions): Promise<{ runId: string; reportLink: string; notKept: string[] }> {
  const store = new ArtifactStore(outDir);
  // A healed command also names the page before healing (its Code Review item shows both).
  const ids = [
    ...new Set(
      report.testCases.flatMap((tc) =>
        tc.steps.flatMap((step) => step.commands.flatMap((c) => [c.screenshotId, c.healing?.beforeScreenshotId])),
      ),
    ).values(),
  ].filter((id): id is string => typeof id === 'string');
  const serverIds = new Map<string, string>();
  await mapLimit(ids, ARTIFACT_CONCURRENCY, async (id) => {
    const data = (await readFile(store.fileOf(id))).toString('base64');
    const answer = await withRetry(() => client.call(runnerCalls.uploadArtifact, { body: { projectId, contentType: 'image/png', data } }));
    serverIds.set(id, answer.id);
  });
  // The run's JUnit XML and HTML report go with it (a worker deletes its output folder after the
  // upload); one larger than an artifact may be stays local only.
  const reportFiles: { junit?: string; html?: string } = {};
  const notKept: string[] = [];
  for (const { key, file, contentType } of KEPT_FILES) {
    const size = await stat(path.join(outDir, file)).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined) continue;
    if (size > ARTIFACT_MAX_BYTES) {
      notKept.push(file);
      continue;
    }
    const data = (await readFile(path.join(outDir, file))).toString('base64');
    reportFiles[key] = (await withRetry(() => client.call(runnerCalls.uploadArtifact, { body: { projectId, contentType, data } }))).id;
  }
  // Each kept trace once; one larger than an artifact may be stays in the local report only.
  const traceIds = new Map<string, string>();
  for (const id of new Set(report.testCases.flatMap((testCase) => (testCase.traceFileId ? [testCase.traceFileId] : [])))) {
    const file = store.fileOf(id, TRACE_EXTENSION);
    const size = await stat(file).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined) continue;
    if (size > ARTIFACT_MAX_BYTES) {
      notKept.push(path.relative(outDir, file));
      continue;
    }
    const data = (await readFile(file)).toString('base64');
    try {
      traceIds.set(
        id,
        (await withRetry(() => client.call(runnerCalls.uploadArtifact, { body: { projectId, contentType: 'application/zip', data } }))).id,
      );
    } catch (error) {
      // A trace is an aid: a project at its artifact quota still gets its run, the trace stays here.
      if (!(error instanceof ApiError && error.httpStatus === 413)) throw error;
      notKept.push(path.relative(outDir, file));
    }
  }
  const uploaded: RunReport = {
    ...report,
    testCases: report.testCases.map(({ traceFileId, ...testCase }) => ({
      ...testCase,
      ...(traceFileId && traceIds.has(traceFileId) ? { traceFileId: traceIds.get(traceFileId) } : {}),
      ...(reportFiles.junit || reportFiles.html ? { reportFiles } : {}),
      steps: testCase.steps.map((step) => ({
        ...step,
        commands: step.commands.map((command) => {
          const mapped = command.screenshotId
            ? { ...command, screenshotId: serverIds.get(command.screenshotId) ?? command.screenshotId }
            : command;
          const before = command.healing?.beforeScreenshotId;
          return before && mapped.healing
            ? { ...mapped, healing: { ...mapped.healing, beforeScreenshotId: serverIds.get(before) ?? before } }
            : mapped;
        }),
      })),
    })),
  };
  const uploadKey = givenKey ?? randomUUID();
  const answer = await withRetry(() =>
    client.call(runnerCalls.uploadRun, {
      body: { projectId, uploadKey, report: uploaded, ...(branch ? { branch } : {}), ...(appendTo ? { appendTo } : {}) },
    }),
  );
  return { runId: answer.runId, reportLink: answer.reportLink, notKept };
}
