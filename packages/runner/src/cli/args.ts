import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../support/settings.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into usage errors (exit code 2). */
export function parse<O extends Options>(
  args: string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export const RUN_OPTIONS = {
  env: { type: 'string' },
  server: { type: 'string' },
  token: { type: 'string' },
  project: { type: 'string' },
  branch: { type: 'string' },
  commit: { type: 'string' },
  headless: { type: 'boolean' },
  headed: { type: 'boolean' },
  name: { type: 'string' },
  scenario: { type: 'string' },
  tags: { type: 'string' },
  profile: { type: 'string', short: 'p', multiple: true },
  format: { type: 'string', short: 'f', multiple: true },
  'format-options': { type: 'string' },
  retry: { type: 'string' },
  parallel: { type: 'string' },
  'fail-fast': { type: 'boolean' },
  'dry-run': { type: 'boolean', short: 'd' },
  browser: { type: 'string' },
  viewport: { type: 'string' },
  screenshots: { type: 'string' },
  trace: { type: 'string' },
  out: { type: 'string' },
  data: { type: 'string' },
  'append-to': { type: 'string' },
  'upload-key': { type: 'string' },
  'result-file': { type: 'string' },
  heal: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export const PULL_OPTIONS = {
  server: { type: 'string' },
  token: { type: 'string' },
  project: { type: 'string' },
  branch: { type: 'string' },
  commit: { type: 'string' },
  dir: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export const USAGE = `Usage:
  rehearse run [--env environments/<name>.json] [features...]
               [--scenario "<name>" | --name "<regexp>"] [--tags "<expression>"] [--profile p]
               [--format name[:file]] [--format-options json] [--retry N] [--parallel N]
               [--fail-fast] [--dry-run]
               [--browser chromium|firefox|webkit] [--viewport 1024x768] [--headless | --headed]
               [--screenshots every-command|on-failure|off] [--data file.json] [--out dir] [--heal]
               [--trace off|on|retain-on-failure|on-first-retry]
               [--token T [--server URL] [--project id] [--branch b] [--commit c]]
  rehearse pull --token T [--server URL] [--project id] [--branch b] [--commit c] [--dir d]
  rehearse worker --server URL --token T [--threads N] [--job-timeout seconds] [--process-per-scenario]
  rehearse record --token T --env <name> [--server URL] [--project id] [--feature f] [--scenario s]
                  [--branch b] [--headless] [--debug-port N]
  rehearse setup --server URL [--server URL2 …] | rehearse setup --remove
  rehearse open 'rehearse://recorder?…'

run   Runs the workspace's scenarios (features/**/*.feature by default) with cucumber-js and
      writes the report to --out (default ./rehearse-report). With --token it fetches the
      run's test data from the server (at --commit <full id> when given, as workers do for
      an execution's pinned commit) and uploads the report, then prints its link.
      It writes report.json and cucumber's own junit.xml, cucumber.json, report.html and
      messages.ndjson (secrets masked in all of them); --format adds a cucumber formatter, or
      moves a default one to another file (--format junit:ci/junit.xml). Like cucumber-js it
      honours cucumber.js/.mjs/.cjs/.json/.yaml profiles (--profile), loads support code from
      features/**/*.{js,mjs,cjs,ts} unless a profile names its own, and takes --name as a
      regular expression; --scenario selects one scenario by its exact name (an outline's name
      as written selects all its examples). --retry N reruns a failing scenario up to N times; one
      that passes on a retry is marked flaky. --dry-run lists undefined and ambiguous steps.
      --heal runs with AI recovery: an element no locator finds is looked for by its recorded
      fingerprint; a scenario that then passes is rerun once with the healed locators to
      confirm it and reported as fixed by AI (the fix waits in Code Review).
      --trace (or REHEARSE_TRACE, or "trace" in rehearse.config.json) keeps Playwright traces
      in the report's artifacts: retain-on-failure (default) for failed scenarios, on for every
      one, on-first-retry for the first retry. Open one with npx playwright show-trace <zip>;
      secret test data is masked in them.
worker  Connects out to the server with a worker token and runs execution scenarios, N at a
      time, until stopped (SIGTERM finishes nothing new). Each thread keeps one warm runner per
      execution run (workspace, support code and browser loaded once, a fresh browser context
      per scenario); --process-per-scenario gives every scenario its own process, workspace
      and browser instead (slower, for step code that leaks state between scenarios).
      run's --append-to <runId> --upload-key <key> (used by workers) add the report's scenarios
      to an execution's run, once per key; --result-file <file> writes how the run went as JSON
      (exitCode, runId, reportLink, errorClass none|test-failed|infrastructure, reason).
      --job-timeout (or REHEARSE_JOB_TIMEOUT_SECONDS; default 900) is each job's deadline.
pull  Downloads the project's workspace into --dir (default .) and remembers the project in
      .rehearse/project.json. --commit <full id> downloads that commit instead of the branch's head.
record Opens Chromium with the recorder on the environment. The recorder panel in the page shows
      the steps and has Add assertion, Undo last and Publish, which writes the scenario (step
      definitions and locator files included) to the project's workspace.
setup Registers rehearse as the handler of rehearse:// links (Linux), for the named servers
      only, so the open-recorder page's "Continue in the app" starts the recorder.
open  What the registered handler runs: records as a rehearse:// link asks.

The server (default http://localhost:4000), token and project may also come from
REHEARSE_SERVER, REHEARSE_TOKEN and REHEARSE_PROJECT. An access key belongs to one project, so
a server and its token are enough: --project is optional and must then be the key's project.
run, pull and record in a pulled folder read the server and project from .rehearse/project.json. A
server of another version than this rehearse gets a warning naming both. Exit codes: 0 all scenarios passed, 1 a scenario (or the upload) failed,
2 the command line or the setup is wrong.
`;
