import path from 'node:path';
import { settingsFromWorkspace, type RunSettings } from '../support/settings.js';
import { TestData } from '../support/test-data.js';
import { ArtifactStore } from './artifacts.js';
import { ReportBuilder, type Envelope } from './builder.js';
import { REPORT_FILES } from './write.js';

/** Formatter options (cucumber `formatOptions: { rehearse: { … } }`). */
export interface FormatterOptions {
  /** Folder for artifacts when the report itself goes to stdout. */
  out?: string;
}

interface FormatterContext {
  on: (key: 'message', handler: (envelope: Envelope) => void) => void;
  options: FormatterOptions;
  write: (buffer: string | Uint8Array) => void;
  directory?: string;
}

function workspaceSettings(): RunSettings | undefined {
  try {
    return settingsFromWorkspace(process.cwd());
  } catch {
    return undefined;
  }
}

/**
 * The run report as a cucumber-js formatter plugin, for plain cucumber-js:
 * `format: [['@rehearse/runner/formatter', 'rehearse-report/report.json']]`. The report JSON goes
 * to the format's target and `artifacts/` next to it; JUnit, JSON and HTML come from cucumber's own
 * `junit`, `json` and `html` formatters, listed beside it.
 */
const formatter = {
  type: 'formatter' as const,
  optionsKey: 'rehearse',
  formatter({ on, options, write, directory }: FormatterContext) {
    const outDir = directory ?? path.resolve(options.out ?? 'rehearse-report');
    const settings = workspaceSettings();
    const builder = new ReportBuilder(
      {
        env: settings?.env ?? { name: 'default', baseUrl: '' },
        browser: settings?.browser ?? 'chromium',
        viewport: settings?.viewport ?? { width: 1024, height: 768 },
        mode: 'local',
      },
      new ArtifactStore(outDir),
    );
    on('message', (envelope) => builder.add(envelope));
    return () => {
      // The support code scrubs secrets as it records; this also catches a user's own error messages.
      const redactor = new TestData(settings?.testData ?? [], settings?.env ?? { name: 'default', baseUrl: '' });
      const report = redactor.redactDeep(builder.build());
      write(`${JSON.stringify(report, null, 2)}\n`);
    };
  },
};

export default formatter;
export { REPORT_FILES };
