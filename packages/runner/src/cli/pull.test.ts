import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Headers, runnerCalls, workspaceCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/output.js';
import { runCli } from './index.js';

const PROJECT_ID = '22222222-2222-4222-8222-222222222222';
const TOKEN = 'rhs_pull_key';

/** A workspace as the server keeps it, archived the way the download route does (git archive). */
function gitArchive(): { tar: Buffer; commit: string } {
  const repo = mkdtempSync(path.join(tmpdir(), 'rehearse-repo-'));
  const files: Record<string, string> = {
    'rehearse.config.json': '{ "screenshots": "on-failure" }\n',
    'environments/default.json': '{ "name": "default", "baseUrl": "http://shop.test/" }\n',
    'features/shop.feature': 'Feature: Shop\n  Scenario: Open\n    Given I open "/"\n',
    [`features/${'long-folder-name/'.repeat(8)}deep.feature`]: 'Feature: Deep\n',
    'features/step_definitions/shop.mjs': "import { context } from '@rehearse/runner';\n",
    'data/data.json': '{}\n',
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), content);
  }
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'seed');
  const commit = git('rev-parse', 'HEAD').toString().trim();
  const tar = git('archive', '--format=tar', 'HEAD');
  rmSync(repo, { recursive: true, force: true });
  return { tar, commit };
}

describe('rehearse pull', () => {
  const requests: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  let server: ReturnType<typeof createServer>;
  let url: string;
  let archive: { tar: Buffer; commit: string };
  const dirs: string[] = [];

  beforeAll(async () => {
    archive = gitArchive();
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        requests.push({ url: request.url ?? '', headers: request.headers, body });
        if (request.headers.authorization !== `Bearer ${TOKEN}`) {
          response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, error: 'Session Expired' }));
          return;
        }
        if (request.url?.startsWith(workspaceCalls.download.path)) {
          response
            .writeHead(200, {
              'content-type': 'application/x-tar',
              [Headers.projectId]: PROJECT_ID,
              'x-rehearse-commit': archive.commit,
              'x-rehearse-branch': 'main',
            })
            .end(archive.tar);
          return;
        }
        response.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, error: 'Forbidden' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const newDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-pull-'));
    dirs.push(dir);
    return dir;
  };

  it('downloads the workspace with the client headers, extracts it and remembers the project for run', async () => {
    const dir = newDir();
    const io = captureIo();
    const code = await runCli(['pull', '--server', url, '--token', TOKEN, '--project', PROJECT_ID, '--dir', 'ws'], {
      cwd: dir,
      stdout: io.stdout,
      stderr: io.stderr,
    });
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    const download = requests.at(-1)!;
    expect(download.url).toBe(`${workspaceCalls.download.path}?projectId=${PROJECT_ID}`);
    expect(download.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(download.headers[Headers.projectId]).toBe(PROJECT_ID);
    expect(download.headers[Headers.trace]).toMatch(/^[0-9a-f-]{36}$/);
    expect(download.headers[Headers.session]).toMatch(/^[0-9a-f-]{36}$/);

    const ws = path.join(dir, 'ws');
    expect(readFileSync(path.join(ws, 'features/shop.feature'), 'utf8')).toContain('Given I open "/"');
    expect(existsSync(path.join(ws, `features/${'long-folder-name/'.repeat(8)}deep.feature`))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(ws, '.rehearse/project.json'), 'utf8'))).toMatchObject({
      projectId: PROJECT_ID,
      server: url,
      branch: 'main',
      commit: archive.commit,
    });
    expect(io.out()).toContain(`Pulled 6 files of project ${PROJECT_ID} (main @ ${archive.commit.slice(0, 12)})`);

    // `run` in the pulled folder needs no --project: it asks the server for the run's test data
    // of that project (and stops there, as the token is refused).
    const runIo = captureIo();
    const runCode = await runCli(['run', '--server', url, '--token', 'wrong-token'], {
      cwd: ws,
      stdout: runIo.stdout,
      stderr: runIo.stderr,
    });
    expect(runCode).toBe(1);
    expect(runIo.err()).toContain("Could not fetch the run's test data");
    const testDataRequest = requests.at(-1)!;
    expect(testDataRequest.url).toBe(runnerCalls.runTestData.path);
    expect(JSON.parse(testDataRequest.body)).toEqual({ projectId: PROJECT_ID, environment: 'default', branch: 'main' });
  });

  it("asks for one commit with --commit (a worker pulling its execution's pinned commit)", async () => {
    const io = captureIo();
    const code = await runCli(
      ['pull', '--server', url, '--token', TOKEN, '--project', PROJECT_ID, '--branch', 'main', '--commit', archive.commit, '--dir', 'ws'],
      {
        cwd: newDir(),
        stdout: io.stdout,
        stderr: io.stderr,
      },
    );
    expect([code, io.err()]).toEqual([0, '']);
    expect(requests.at(-1)!.url).toBe(`${workspaceCalls.download.path}?projectId=${PROJECT_ID}&branch=main&commit=${archive.commit}`);
  });

  it('says why when the server refuses, and needs a project', async () => {
    const io = captureIo();
    const code = await runCli(['pull', '--server', url, '--token', 'nope', '--project', PROJECT_ID], {
      cwd: newDir(),
      stdout: io.stdout,
      stderr: io.stderr,
    });
    expect(code).toBe(1);
    expect(io.err()).toMatch(/Could not download the workspace from .*: Session Expired \(HTTP 401, trace [0-9a-f-]+\)/);

    const usage = captureIo();
    expect(
      await runCli(['pull', '--server', url, '--token', TOKEN], { cwd: newDir(), env: {}, stdout: usage.stdout, stderr: usage.stderr }),
    ).toBe(2);
    expect(usage.err()).toContain('Which project? Pass --project <id>');
  });
});
