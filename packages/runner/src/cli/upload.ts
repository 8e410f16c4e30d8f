import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, type ApiClient } from '@rehearse/api-client';
import { ARTIFACT_MAX_BYTES, runnerCalls, type ArtifactContentType, type RunReport } from '@rehearse/contract';
import { ArtifactStore, TRACE_EXTENSION } from '../report/artifacts.js';
import { REPORT_FILES } from '../report/write.js';
import { DEFAULT_FORMATS } from '../report/formats.js';
import { screenshotsByReference } from '../report/messages.js';

const ATTEMPTS = 3;
const ARTIFACT_CONCURRENCY = 4;
/** Messages carry every screenshot until they name them by reference: larger than this, they are not read into memory. */
const MESSAGES_READ_LIMIT = 20 * ARTIFACT_MAX_BYTES;

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

/**
 * The cucumber reports kept with an uploaded run, by their field in `TestCase.reportFiles`. The
 * HTML report is kept as its messages, which the server renders into cucumber's page on download:
 * the page itself carries cucumber's 1 MB script, which every scenario's upload would repeat.
 */
const KEPT_FILES = [
  { key: 'junit', file: REPORT_FILES.junit, contentType: 'application/xml' },
  { key: 'messages', file: REPORT_FILES.messages, contentType: 'application/x-ndjson' },
] as const;

/** The default formats whose reports an upload keeps (the others stay in the run's output folder). */
export const KEPT_DEFAULT_FORMATS: Partial<typeof DEFAULT_FORMATS> = Object.fromEntries(
  KEPT_FILES.map(({ file }) => [file, DEFAULT_FORMATS[file]]),
);

/** One file to store on the server before the report that names it. */
type ArtifactUpload =
  | { kind: 'screenshot'; id: string; file: string }
  | { kind: 'report'; key: (typeof KEPT_FILES)[number]['key']; file: string; contentType: ArtifactContentType }
  | { kind: 'trace'; id: string; file: string };

/**
 * Uploads a run: each screenshot once (`uploadArtifact`), the JUnit XML cucumber wrote into
 * `outDir` and each kept trace, all at once (a few at a time: the report waits for the slowest,
 * and a worker's next scenario waits for the report); then cucumber's messages, which name the
 * stored screenshots instead of carrying them (both named by every test case's `reportFiles`;
 * `notKept` lists files too large to keep); then the report (`uploadRun`) under one random
 * upload key, so a retried upload is stored once. Ids the server answers with replace the local
 * ones in the uploaded report.
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
  const screenshotIds = new Set(
    report.testCases.flatMap((tc) =>
      tc.steps.flatMap((step) => step.commands.flatMap((c) => [c.screenshotId, c.healing?.beforeScreenshotId])),
    ),
  );
  const traceIds = new Set(report.testCases.flatMap((testCase) => (testCase.traceFileId ? [testCase.traceFileId] : [])));
  const uploads: ArtifactUpload[] = [
    ...[...screenshotIds]
      .filter((id): id is string => typeof id === 'string')
      .map((id) => ({ kind: 'screenshot' as const, id, file: store.fileOf(id) })),
    ...KEPT_FILES.map(({ key, file, contentType }) => ({ kind: 'report' as const, key, file: path.join(outDir, file), contentType })),
    ...[...traceIds].map((id) => ({ kind: 'trace' as const, id, file: store.fileOf(id, TRACE_EXTENSION) })),
  ];
  const send = async (contentType: ArtifactContentType, bytes: Buffer) =>
    (await withRetry(() => client.call(runnerCalls.uploadArtifact, { body: { projectId, contentType, data: bytes.toString('base64') } })))
      .id;
  const serverIds = new Map<string, string>();
  const reportFiles: Partial<Record<(typeof KEPT_FILES)[number]['key'], string>> = {};
  const traceServerIds = new Map<string, string>();
  const isMessages = (upload: ArtifactUpload) => upload.kind === 'report' && upload.key === 'messages';
  /** Stores one upload; the file that stays local only (`notKept`), if it does. */
  const store1 = async (upload: ArtifactUpload): Promise<string | undefined> => {
    if (upload.kind === 'screenshot') {
      serverIds.set(upload.id, await send('image/png', await readFile(upload.file)));
      return undefined;
    }
    // The cucumber reports and traces are optional, and one larger than an artifact may be stays local only.
    const size = await stat(upload.file).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined) return undefined;
    if (size > (isMessages(upload) ? MESSAGES_READ_LIMIT : ARTIFACT_MAX_BYTES)) return path.relative(outDir, upload.file);
    if (upload.kind === 'report') {
      const bytes = isMessages(upload) ? screenshotsByReference(await readFile(upload.file), serverIds) : await readFile(upload.file);
      if (bytes.length > ARTIFACT_MAX_BYTES) return path.relative(outDir, upload.file);
      reportFiles[upload.key] = await send(upload.contentType, bytes);
      return undefined;
    }
    try {
      traceServerIds.set(upload.id, await send('application/zip', await readFile(upload.file)));
      return undefined;
    } catch (error) {
      // A trace is an aid: a project at its artifact quota still gets its run, the trace stays here.
      if (!(error instanceof ApiError && error.httpStatus === 413)) throw error;
      return path.relative(outDir, upload.file);
    }
  };
  // The messages name the stored screenshots by their ids on the server, so they go once those are stored.
  const local = [
    ...(await mapLimit(
      uploads.filter((upload) => !isMessages(upload)),
      ARTIFACT_CONCURRENCY,
      store1,
    )),
    ...(await mapLimit(uploads.filter(isMessages), 1, store1)),
  ];
  const notKept = local.filter((file): file is string => file !== undefined);
  const uploaded: RunReport = {
    ...report,
    testCases: report.testCases.map(({ traceFileId, ...testCase }) => ({
      ...testCase,
      ...(traceFileId && traceServerIds.has(traceFileId) ? { traceFileId: traceServerIds.get(traceFileId) } : {}),
      ...(Object.keys(reportFiles).length > 0 ? { reportFiles } : {}),
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
