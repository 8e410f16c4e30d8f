import { environmentDisplayName, environmentFileName } from '@rehearse/contract';

export interface RunInstructionsInput {
  serverUrl: string;
  projectId: string;
  /** The project's first access key's name; null when it has none (the commands then say {token}). */
  accessKeyName: string | null;
  env: string;
  branch: string;
}

export interface RunInstruction {
  id: 'github' | 'gitlab' | 'shell';
  title: string;
  language: string;
  content: string;
}

/** The runner package CI installs: the cucumber-js client that pulls, runs and uploads. */
const RUNNER_PACKAGE = '@rehearse/runner';

/**
 * The "How to run in CI/CD" commands (DESIGN §11, spec 02 §9): install the runner and its browser,
 * pull the workspace, run headless and upload. A CI secret named REHEARSE_TOKEN holds the access
 * key's token; the page names which key, since a stored token is never shown again.
 */
export function runInstructions(input: RunInstructionsInput): RunInstruction[] {
  const envFile = `environments/${environmentFileName(environmentDisplayName(input.env))}`;
  const secretNote = input.accessKeyName
    ? `the token of the access key "${input.accessKeyName}"`
    : 'an access key token (create one under Project settings > Access keys)';
  const common = `--server ${input.serverUrl} --project ${input.projectId}`;
  const steps = (token: string) => [
    `npm install --no-save ${RUNNER_PACKAGE}`,
    'npx playwright install --with-deps chromium',
    `npx rehearse pull ${common} --branch ${input.branch} --token ${token} --dir rehearse-workspace`,
    `cd rehearse-workspace && npx rehearse run ${common} --branch ${input.branch} --env ${envFile} --token ${token} --headless`,
  ];
  const ciToken = input.accessKeyName ? '"$REHEARSE_TOKEN"' : '{token}';
  const github = [
    'name: Rehearse end-to-end tests',
    'on: [push, workflow_dispatch]',
    'jobs:',
    '  e2e:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-version: 20',
    `      # REHEARSE_TOKEN: a repository secret holding ${secretNote}`,
    '      - name: Run the scenarios',
    '        env:',
    '          REHEARSE_TOKEN: ${{ secrets.REHEARSE_TOKEN }}',
    '        run: |',
    ...steps(ciToken).map((line) => `          ${line}`),
  ].join('\n');
  const gitlab = [
    'rehearse-e2e:',
    '  image: node:20',
    `  # REHEARSE_TOKEN: a masked CI/CD variable holding ${secretNote}`,
    '  script:',
    ...steps(ciToken).map((line) => `    - ${line}`),
  ].join('\n');
  const shell = [
    '#!/usr/bin/env bash',
    'set -euo pipefail',
    input.accessKeyName ? `# REHEARSE_TOKEN: ${secretNote}` : `# Replace {token} with ${secretNote}`,
    ...steps(input.accessKeyName ? '"$REHEARSE_TOKEN"' : '{token}'),
  ].join('\n');
  return [
    { id: 'github', title: 'GitHub Actions', language: 'yaml', content: `${github}\n` },
    { id: 'gitlab', title: 'GitLab CI', language: 'yaml', content: `${gitlab}\n` },
    { id: 'shell', title: 'Shell', language: 'bash', content: `${shell}\n` },
  ];
}
