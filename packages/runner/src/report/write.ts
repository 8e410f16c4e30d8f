import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunReport } from '@rehearse/contract';
import { toCucumberJson, toJUnitXml } from './exports.js';

/** Files a run writes to its output folder, next to `artifacts/`. */
export const REPORT_FILES = { report: 'report.json', junit: 'junit.xml', cucumber: 'cucumber.json' } as const;

/**
 * Writes the report and its JUnit XML and Cucumber JSON exports into `outDir`. `skipReport`: the
 * caller writes report.json itself (the cucumber formatter writes it to its own target).
 */
export function writeReportFiles(outDir: string, report: RunReport, options: { skipReport?: boolean } = {}): void {
  mkdirSync(outDir, { recursive: true });
  if (!options.skipReport) writeFileSync(path.join(outDir, REPORT_FILES.report), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(outDir, REPORT_FILES.junit), toJUnitXml(report));
  writeFileSync(path.join(outDir, REPORT_FILES.cucumber), `${JSON.stringify(toCucumberJson(report), null, 2)}\n`);
}
