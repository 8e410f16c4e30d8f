import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@rehearse/api-client';
import { runnerCalls } from '@rehearse/contract';
import { readProjectFile } from './cli/project-file.js';
import { FORMATTER_MODULE, SUPPORT_REGISTER } from './cli/package-files.js';
import { DATA_FILE, readTestDataFile, settingsFromWorkspace, type RunSettings } from './support/settings.js';
import { mergeRows, type TestDataRow } from './support/test-data.js';

/** Where plain cucumber-js writes the reports, as `rehearse run` does by default. */
const REPORT_DIR = 'rehearse-report';

/**
 * Set while `rehearse run` reads a workspace's cucumber profile: it brings its own support code,
 * formatters (behind its redaction step) and settings, so this profile then adds nothing — else
 * the run would load the report formatter twice into the same folder and fetch test data twice.
 */
export const RUN_CLI_READING_PROFILE = Symbol.for('rehearse.run-cli.reading-profile');

/**
 * The run's test data from the server (`runnerCalls.runTestData`) when REHEARSE_TOKEN is set, as
 * `rehearse run --token` fetches it: the server from REHEARSE_SERVER or the pulled folder's
 * `.rehearse/project.json`, the project from REHEARSE_PROJECT or that file.
 */
async function serverTestData(cwd: string, env: NodeJS.ProcessEnv, environment: string): Promise<TestDataRow[]> {
  const token = env.REHEARSE_TOKEN;
  if (!token) return [];
  const pulled = readProjectFile(cwd);
  const server = env.REHEARSE_SERVER ?? pulled?.server;
  const projectId = env.REHEARSE_PROJECT ?? pulled?.projectId;
  if (!server || !projectId)
    throw new Error(
      'REHEARSE_TOKEN is set, but which server and project? Set REHEARSE_SERVER and REHEARSE_PROJECT, or run `rehearse pull` here first',
    );
  const client = createApiClient({ baseUrl: server, getToken: () => token, getProjectId: () => projectId });
  const branch = env.REHEARSE_BRANCH ?? pulled?.branch;
  const answer = await client.call(runnerCalls.runTestData, { body: { projectId, environment, ...(branch ? { branch } : {}) } });
  return answer.testData;
}

/**
 * The cucumber-js configuration that runs a Rehearse workspace with plain `npx cucumber-js` (issue
 * 18, no lock-in): Rehearse's support code (World, hooks, built-in steps, `context.web`), the
 * workspace's step definitions, the report formatter (rehearse-report/, JUnit included), and the
 * run settings `rehearse run` would use: `REHEARSE_ENV` (default environments/default.json),
 * rehearse.config.json, and test data in the same layers (data/data.json, then the server's
 * values with REHEARSE_TOKEN, then `REHEARSE_DATA`). A workspace's `cucumber.mjs` re-exports it.
 */
export default async function rehearseProfile(): Promise<{ default: Record<string, unknown> }> {
  if ((globalThis as Record<symbol, unknown>)[RUN_CLI_READING_PROFILE]) return { default: {} };
  const cwd = process.cwd();
  const env = process.env;
  const settings: RunSettings = settingsFromWorkspace(cwd, env);
  const environment = settings.env.name;
  const layers: TestDataRow[][] = [];
  if (existsSync(path.join(cwd, DATA_FILE))) layers.push(readTestDataFile(path.join(cwd, DATA_FILE), environment));
  layers.push(await serverTestData(cwd, env, environment));
  if (env.REHEARSE_DATA) layers.push(readTestDataFile(path.resolve(cwd, env.REHEARSE_DATA), environment));
  return {
    default: {
      import: [fileURLToPath(SUPPORT_REGISTER), 'features/**/*.{js,mjs,cjs}'],
      format: [
        'progress',
        [fileURLToPath(FORMATTER_MODULE), path.join(REPORT_DIR, 'report.json')],
        ['junit', path.join(REPORT_DIR, 'junit.xml')],
        ['json', path.join(REPORT_DIR, 'cucumber.json')],
      ],
      worldParameters: { rehearse: { ...settings, testData: mergeRows(...layers) } },
    },
  };
}
