import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aiCalls, workspaceCalls, type RunReport } from '@rehearse/contract';
import { runCli } from '@rehearse/runner/cli';
import { startTodoVersions } from '@rehearse/todo-app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { TODO_DESCRIPTIONS } from './plain-english.descriptions.js';

/**
 * Issue 19 "Must show": thirty natural descriptions typed into "Create scenario" for an app we did
 * not design the grammar around. Each either becomes a scenario that passes when the runner runs
 * it on the app, or is refused with the line to rephrase named, writing nothing. No provider is
 * configured: this is the offline grammar alone.
 */
describe('plain-English descriptions of the todo app', () => {
  let test: TestApp;
  let todo: Awaited<ReturnType<typeof startTodoVersions>>;
  let dir: string | undefined;

  beforeAll(async () => {
    [test, todo] = await Promise.all([startTestApp('pglite'), startTodoVersions()]);
  });
  afterAll(async () => {
    await test?.close();
    await todo?.app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'creates a passing scenario from every description it understands and names the line of every one it refuses',
    { timeout: 240_000 },
    async () => {
      expect(TODO_DESCRIPTIONS).toHaveLength(30);
      const { api, projectId } = await signUp(test);
      const feature = 'features/Described.feature';
      const created: string[] = [];
      for (const description of TODO_DESCRIPTIONS) {
        const body = { projectId, featureName: 'Described', name: description.name, flow: description.flow, parameters: {} };
        if (description.refuses) {
          const before =
            created.length > 0
              ? (await api.call(workspaceCalls.getFileContent, { query: { projectId, file_path: feature } })).content
              : null;
          const refusal = await failure(api.call(aiCalls.scenarioCreation, { body }));
          expect([refusal.httpStatus, refusal.message], description.name).toEqual([
            400,
            `Nothing was created: this line does not read as a step: “${description.refuses}”. Rephrase it with the words of the Steps reference, or write a step in Gherkin.`,
          ]);
          if (before !== null)
            expect((await api.call(workspaceCalls.getFileContent, { query: { projectId, file_path: feature } })).content).toBe(before);
        } else {
          const answer = await api.call(aiCalls.scenarioCreation, { body });
          expect(answer.scenarioName).toBe(description.name);
          created.push(description.name);
        }
      }
      expect(created).toHaveLength(29);

      // The feature as the server wrote it, run by the runner on the app, as `rehearse pull` and `rehearse run` would.
      const { content } = await api.call(workspaceCalls.getFileContent, { query: { projectId, file_path: feature } });
      dir = mkdtempSync(path.join(tmpdir(), 'rehearse-described-'));
      const files: Record<string, string> = {
        [feature]: content,
        'environments/todo.json': JSON.stringify({ name: 'todo', baseUrl: todo.v1 }),
        'rehearse.config.json': JSON.stringify({ screenshots: 'off', commandTimeoutMs: 3_000 }),
        'fixtures/todos.txt': 'walk the dog\nwater the plants\npay the rent\n',
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const output: string[] = [];
      const sink = { write: (text: string) => output.push(text) };
      const code = await runCli(['run', '--env', 'environments/todo.json', '--headless', '--out', 'report'], {
        cwd: dir,
        stdout: sink,
        stderr: sink,
      });
      const report = JSON.parse(readFileSync(path.join(dir, 'report', 'report.json'), 'utf8')) as RunReport;
      const outcomes = report.testCases.map((testCase) => [testCase.scenarioName, testCase.result.status]);
      expect(outcomes, output.join('')).toEqual(created.map((name) => [name, 'PASSED']));
      expect(code).toBe(0);
    },
  );
});
