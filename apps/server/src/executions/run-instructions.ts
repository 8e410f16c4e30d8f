import { environmentDisplayName, environmentFileName } from '@rehearse/contract';
import { npmInstallCommand, shellWord } from '../downloads/install-commands.js';

export interface RunInstructionsInput {
  serverUrl: string;
  projectId: string;
  /** The project's first access key's name; null when it has none (the text then says how to make one). */
  accessKeyName: string | null;
  /** The environment the user picked (an existing one); null when the project has none yet. */
  env: string | null;
  branch: string;
  /** The playwright-core version the runner package pins: the browser install must match it. */
  playwrightVersion: string;
  /** One scenario (the scenario's "Run via CI/CD" dialog) instead of every scenario. */
  scenario?: { feature: string; name: string } | undefined;
}

export interface RunInstruction {
  id: 'github' | 'gitlab' | 'shell';
  title: string;
  language: string;
  content: string;
}

/** Where the runner writes its report (JUnit, Cucumber JSON, report.json, screenshots), beside the workspace. */
export const REPORT_DIR = 'rehearse-report';
const WORKSPACE_DIR = 'rehearse-workspace';
/** The line a test runs these instructions without (it brings its own Chromium). */
export const BROWSER_INSTALL_PREFIX = 'npx playwright-core@';

/**
 * A command as a YAML scalar: plain (as a person would write it) unless it starts with an
 * indicator or holds ": " or " #", else double-quoted (a JSON string is a YAML double-quoted scalar).
 */
function yamlScalar(text: string): string {
  const plain = !/^[-?:,[\]{}#&*!|>'"%@`\s]/.test(text) && !/: |\s#|:$|\s$|[\n\r\t]/.test(text);
  return plain ? text : JSON.stringify(text);
}

/**
 * The "How to run in CI/CD" text (DESIGN §11, spec 02 §9, issue 18), the one source the CI/CD
 * page and the scenario dialog show: install the runner from this server, the browser at the
 * runner's playwright-core version, pull the project's workspace at the branch, run it against
 * the picked environment headless, upload, and keep the report (JUnit where the CI shows it).
 * The token is never in the text: the CI keeps it as the secret REHEARSE_TOKEN, which rehearse reads.
 */
export function runInstructions(input: RunInstructionsInput): RunInstruction[] {
  const server = input.serverUrl.replace(/\/+$/, '');
  const envFile = `environments/${environmentFileName(environmentDisplayName(input.env ?? '{environment}'))}`;
  // A key's name is anyone's text: it only ever lands in a comment, on one line.
  const keyName = input.accessKeyName?.replace(/[\r\n\u2028\u2029]+/g, ' ');
  const secretNote = keyName
    ? `the access token "${keyName}"`
    : 'an access token of the project (generate one under Settings > Access tokens)';
  const target = `--server ${shellWord(server)} --project ${input.projectId}`;
  const only = input.scenario
    ? ` --scenario ${shellWord(input.scenario.name)} ${shellWord(`features/${input.scenario.feature}.feature`)}`
    : '';
  const commands = {
    install: npmInstallCommand(server),
    browser: `${BROWSER_INSTALL_PREFIX}${input.playwrightVersion} install --with-deps chromium`,
    pull: `npx rehearse pull ${target} --branch ${shellWord(input.branch)} --dir ${WORKSPACE_DIR}`,
    run: `cd ${WORKSPACE_DIR} && npx rehearse run ${target} --branch ${shellWord(input.branch)} --env ${shellWord(envFile)} --headless --out ../${REPORT_DIR}${only}`,
  };
  const envNote = input.env ? [] : ['# This project has no environment yet: create one, then pick it on this page.'];

  const github = [
    'name: Rehearse end-to-end tests',
    'on: [push, workflow_dispatch]',
    'jobs:',
    '  e2e:',
    '    runs-on: ubuntu-latest',
    ...envNote.map((line) => `    ${line}`),
    `    # REHEARSE_TOKEN: a repository secret holding ${secretNote}`,
    '    env:',
    '      REHEARSE_TOKEN: ${{ secrets.REHEARSE_TOKEN }}',
    '    steps:',
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-version: 20',
    '      - name: Install the Rehearse runner from the server',
    `        run: ${yamlScalar(commands.install)}`,
    "      - name: Install Chromium (the runner's playwright-core version)",
    `        run: ${yamlScalar(commands.browser)}`,
    '      - name: Pull the workspace',
    `        run: ${yamlScalar(commands.pull)}`,
    '      - name: Run the scenarios and upload the report',
    `        run: ${yamlScalar(commands.run)}`,
    '      - name: Keep the report',
    '        if: always()',
    '        uses: actions/upload-artifact@v4',
    '        with:',
    `          name: ${REPORT_DIR}`,
    `          path: ${REPORT_DIR}`,
    '      - name: Test summary',
    '        if: always()',
    '        uses: test-summary/action@v2',
    '        with:',
    `          paths: ${REPORT_DIR}/junit.xml`,
  ].join('\n');
  const gitlab = [
    'rehearse-e2e:',
    '  image: node:20',
    ...envNote.map((line) => `  ${line}`),
    `  # REHEARSE_TOKEN: a masked CI/CD variable holding ${secretNote}`,
    '  script:',
    ...Object.values(commands).map((command) => `    - ${yamlScalar(command)}`),
    '  artifacts:',
    '    when: always',
    '    paths:',
    `      - ${REPORT_DIR}/`,
    '    reports:',
    `      junit: ${REPORT_DIR}/junit.xml`,
  ].join('\n');
  const shell = [
    '#!/usr/bin/env bash',
    'set -euo pipefail',
    ...envNote,
    `# REHEARSE_TOKEN: ${secretNote}`,
    ': "${REHEARSE_TOKEN:?Set REHEARSE_TOKEN to an access token of the project}"',
    ...Object.values(commands),
  ].join('\n');
  return [
    { id: 'github', title: 'GitHub Actions', language: 'yaml', content: `${github}\n` },
    { id: 'gitlab', title: 'GitLab CI', language: 'yaml', content: `${gitlab}\n` },
    { id: 'shell', title: 'Shell', language: 'bash', content: `${shell}\n` },
  ];
}
