import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunReport } from '@rehearse/contract';
import type { DEFAULT_FORMATS } from './formats.js';

/**
 * Files a run writes to its output folder, next to `artifacts/`: our report, and what cucumber's
 * own formatters write there by default (see DEFAULT_FORMATS).
 */
export const REPORT_FILES = {
  report: 'report.json',
  junit: 'junit.xml',
  cucumber: 'cucumber.json',
  html: 'report.html',
  messages: 'messages.ndjson',
} as const satisfies Record<string, 'report.json' | keyof typeof DEFAULT_FORMATS>;

/** Writes the run report (`report.json`) into `outDir`. */
export function writeReport(outDir: string, report: RunReport): void {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, REPORT_FILES.report), `${JSON.stringify(report, null, 2)}\n`);
}
