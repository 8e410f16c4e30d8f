import { createHash } from 'node:crypto';
import type { RecordedCommand, RecordedPage, RecorderAssertion, RecorderInput } from '@rehearse/contract';

/**
 * What the API server and a cloud recorder process say to each other over the process's IPC
 * channel, and the test-data digests it is started with. Here, not in the recorder, so the server
 * shares the types without loading the recorder's browser code.
 */

/** What the server sends a recorder process. */
export type ToRecorder =
  | { type: 'input'; input: RecorderInput }
  | { type: 'assert'; mode: RecorderAssertion; text?: string }
  | { type: 'undo' }
  | { type: 'close' };

/** What a recorder process reports. Frames carry JPEG bytes (IPC uses advanced serialization). */
export type FromRecorder =
  | { type: 'ready' }
  | { type: 'frame'; data: Buffer; width: number; height: number; input?: number }
  | { type: 'commands'; commands: RecordedCommand[] }
  | { type: 'page'; page: RecordedPage }
  /** `refused`: the page could not be opened from here (the egress rules, or unreachable), not a fault of the recorder. */
  | { type: 'failed'; message: string; refused?: boolean };

/** A test-data value as the page sees it: the SHA-256 of the value, never the value. */
export interface TestDataDigest {
  key: string;
  sha256: string;
  secret: boolean;
}

/** How a recorder process is started (passed in its environment as JSON). */
export interface RecorderProcessConfig {
  url: string;
  baseUrl: string;
  viewport: { width: number; height: number };
  testData?: TestDataDigest[];
  jpegQuality?: number;
}

/** Digests of test-data values, so the page can turn a typed value into its `{{key}}` reference. */
export function digestTestData(rows: { key: string; value: string; secret?: boolean }[]): TestDataDigest[] {
  return rows
    .filter((row) => row.value.length > 0)
    .map((row) => ({ key: row.key, sha256: createHash('sha256').update(row.value, 'utf8').digest('hex'), secret: row.secret ?? false }));
}
