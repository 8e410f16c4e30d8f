import { createHash } from 'node:crypto';
import type { TestDataDigest } from './capture-script.js';

/** Digests of test-data values, so the page can turn a typed value into its `{{key}}` reference. */
export function digestTestData(rows: { key: string; value: string; secret?: boolean }[]): TestDataDigest[] {
  return rows
    .filter((row) => row.value.length > 0)
    .map((row) => ({ key: row.key, sha256: createHash('sha256').update(row.value, 'utf8').digest('hex'), secret: row.secret ?? false }));
}
