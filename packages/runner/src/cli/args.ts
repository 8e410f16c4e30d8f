import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../support/settings.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into usage errors (exit code 2). */
export function parse<O extends Options>(args: string[], options: O): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> {
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
  tags: { type: 'string' },
  browser: { type: 'string' },
  viewport: { type: 'string' },
  screenshots: { type: 'string' },
  out: { type: 'string' },
  data: { type: 'string' },
  'append-to': { type: 'string' },
  'upload-key': { type: 'string' },
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
               [--name "<scenario>"] [--tags "<expression>"]
               [--browser chromium|firefox|webkit] [--viewport 1024x768] [--headless | --headed]
               [--screenshots every-command|on-failure|off] [--data file.json] [--out dir] [--heal]
               [--token T [--server URL] [--project id] [--branch b] [--commit c]]
  rehearse pull --token T [--server URL] [--project id] [--branch b] [--commit c] [--dir d]
  rehearse worker --server URL --token T [--threads N]
  rehearse record --token T --project id --env <name> [--server URL] [--feature f] [--scenario s]
                  [--branch b] [--headless]

run   Runs the workspace's scenarios (features/**/*.feature by default) with cucumber-js and
      writes the report to --out (default ./rehearse-report). With --token it fetches the
      run's test data from the server (at --commit <full id> when given, as workers do for
      an execution's pinned commit) and uploads the report, then prints its link.
      --heal runs with AI recovery: an element no locator finds is looked for by its recorded
      fingerprint; a scenario that then passes is rerun once with the healed locators to
      confirm it and reported as fixed by AI (the fix waits in Code Review).
worker  Connects out to the server with a worker token and runs execution scenarios, N at a
      time, each in its own workspace and Chromium, until stopped (SIGTERM finishes nothing new).
      run's --append-to <runId> --upload-key <key> (used by workers) add the report's scenarios
      to an execution's run, once per key.
pull  Downloads the project's workspace into --dir (default .) and remembers the project in
      .rehearse/project.json. --commit <full id> downloads that commit instead of the branch's head.
record Opens Chromium with the recorder on the environment. The recorder panel in the page shows
      the steps and has Add assertion, Undo last and Publish, which writes the scenario (step
      definitions and locator files included) to the project's workspace.

The server (default http://localhost:4000), token and project may also come from
REHEARSE_SERVER, REHEARSE_TOKEN and REHEARSE_PROJECT; run and pull in a pulled folder read the
project from .rehearse/project.json. Exit codes: 0 all scenarios passed, 1 a scenario (or the upload) failed,
2 the command line or the setup is wrong.
`;
