import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@rehearse/api-client';
import { runnerCalls } from '@rehearse/contract';
import { RUN_CLI_READING_PROFILE } from './cli/io.js';
import { readProjectFile } from './cli/project-file.js';
import { FORMATTER_MODULE, SUPPORT_REGISTER } from './cli/package-files.js';
import { DATA_FILE, readTestDataFile, settingsFromWorkspace, type RunSettings } from './support/settings.js';
import { mergeRows, type TestDataRow } from './support/test-data.js';

/** Where plain cucumber-js writes the reports, as `rehearse run` does by default. */
const REPORT_DIR = 'rehearse-report';

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
 * values with REHEARSE_TOKEN, then `REHEARSE_DATA`).
 */
async function rehearseProfile(): Promise<Record<string, unknown>> {
  const cwd = process.cwd();
  const env = process.env;
  const settings: RunSettings = settingsFromWorkspace(cwd, env);
  const environment = settings.env.name;
  const layers: TestDataRow[][] = [];
  if (existsSync(path.join(cwd, DATA_FILE))) layers.push(readTestDataFile(path.join(cwd, DATA_FILE), environment));
  layers.push(await serverTestData(cwd, env, environment));
  if (env.REHEARSE_DATA) layers.push(readTestDataFile(path.resolve(cwd, env.REHEARSE_DATA), environment));
  return {
    import: [fileURLToPath(SUPPORT_REGISTER), 'features/**/*.{js,mjs,cjs}'],
    format: [
      'progress',
      [fileURLToPath(FORMATTER_MODULE), path.join(REPORT_DIR, 'report.json')],
      ['junit', path.join(REPORT_DIR, 'junit.xml')],
      ['json', path.join(REPORT_DIR, 'cucumber.json')],
    ],
    worldParameters: { rehearse: { ...settings, testData: mergeRows(...layers) } },
  };
}

/**
 * Rehearse's profile as a plain object, which a workspace's `cucumber.mjs` exports as its default.
 * Not cucumber's "default function" form: cucumber-js refuses any named profile beside a default
 * function ("if a default function definition is provided, no other static profiles should be
 * specified", issue 47), and a user's own profiles start from this one
 * (`export const smoke = { ...rehearse, tags: '@smoke' }`). The work that needs waiting for (the
 * server's test data) happens once, when cucumber-js imports the file. Under `rehearse run` it is
 * empty: the run brings its own support code, formatters and settings, so a profile adds only
 * what the user wrote.
 */
const profile: Record<string, unknown> = (globalThis as Record<symbol, unknown>)[RUN_CLI_READING_PROFILE] ? {} : await rehearseProfile();
export default profile;
