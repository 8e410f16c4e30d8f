import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runnerCalls, systemCalls, workspaceCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/output.js';
import { runCli } from './index.js';
import { RUNNER_VERSION } from './package-files.js';

const KEY_PROJECT = '33333333-3333-4333-8333-333333333333';
const OTHER_PROJECT = '44444444-4444-4444-8444-444444444444';
const KEY = 'rhs_key_of_one_project';
const SESSION = 'rhs_session_token';

/** An empty tar archive: two 512-byte zero blocks. */
const EMPTY_TAR = Buffer.alloc(1024);

describe("a token is enough: the server names the key's project and its version", () => {
  let url: string;
  let serverVersion = RUNNER_VERSION;
  const downloads: string[] = [];
  const server = createServer((request, response) => {
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const auth = request.headers.authorization;
    if (request.url === systemCalls.health.path)
      return json(200, { status: true, version: serverVersion, database: 'pglite', uptimeSeconds: 1 });
    if (request.url === runnerCalls.keyProject.path) {
      if (auth === `Bearer ${KEY}`) return json(200, { status: true, projectId: KEY_PROJECT });
      if (auth === `Bearer ${SESSION}`) return json(403, { status: false, error: 'Only an access key has a project of its own' });
      return json(401, { status: false, error: 'Session Expired' });
    }
    if (request.url?.startsWith(workspaceCalls.download.path)) {
      downloads.push(request.url);
      const projectId = new URL(request.url, 'http://x').searchParams.get('projectId')!;
      return response
        .writeHead(200, { 'content-type': 'application/x-tar', 'x-project-id': projectId, 'x-rehearse-branch': 'main' })
        .end(EMPTY_TAR);
    }
    return json(404, { status: false, error: 'Not found.' });
  });
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-key-'));
    dirs.push(dir);
    return dir;
  };
  const pull = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const io = captureIo();
    const dir = newDir();
    const code = await runCli(['pull', ...args], { cwd: dir, env, stdout: io.stdout, stderr: io.stderr });
    return { code, out: io.out(), err: io.err(), dir };
  };

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("pulls with only the server and an access key (flags or REHEARSE_SERVER / REHEARSE_TOKEN) into the key's project", async () => {
    const byFlags = await pull(['--server', url, '--token', KEY]);
    expect([byFlags.code, byFlags.err]).toEqual([0, '']);
    expect(downloads.at(-1)).toBe(`${workspaceCalls.download.path}?projectId=${KEY_PROJECT}`);
    expect(JSON.parse(readFileSync(path.join(byFlags.dir, '.rehearse', 'project.json'), 'utf8'))).toMatchObject({
      projectId: KEY_PROJECT,
      server: url,
    });
    // The pulled folder gets the profile plain cucumber-js runs it with.
    expect(readFileSync(path.join(byFlags.dir, 'cucumber.mjs'), 'utf8')).toContain("import rehearse from '@rehearse/runner/profile';");

    const byEnv = await pull([], { REHEARSE_SERVER: url, REHEARSE_TOKEN: KEY });
    expect([byEnv.code, byEnv.err]).toEqual([0, '']);
    expect(downloads.at(-1)).toBe(`${workspaceCalls.download.path}?projectId=${KEY_PROJECT}`);
  });

  it('checks --project against the key, and asks for it when the token is not a key', async () => {
    const same = await pull(['--server', url, '--token', KEY, '--project', KEY_PROJECT]);
    expect(same.code).toBe(0);

    const other = await pull(['--server', url, '--token', KEY, '--project', OTHER_PROJECT]);
    expect(other.code).toBe(2);
    expect(other.err).toContain(`--project ${OTHER_PROJECT} is not the project of this access key (it belongs to project ${KEY_PROJECT})`);

    const session = await pull(['--server', url, '--token', SESSION]);
    expect(session.code).toBe(2);
    expect(session.err).toContain('Which project? Pass --project <id>');
    const sessionWithProject = await pull(['--server', url, '--token', SESSION, '--project', OTHER_PROJECT]);
    expect(sessionWithProject.code).toBe(0);
    expect(downloads.at(-1)).toBe(`${workspaceCalls.download.path}?projectId=${OTHER_PROJECT}`);

    const refused = await pull(['--server', url, '--token', 'rhs_wrong']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`The server at ${url} refused the token: Session Expired`);
  });

  it('warns with both versions when the server speaks another version, and goes on', async () => {
    serverVersion = '9.9.9';
    try {
      const result = await pull(['--server', url, '--token', KEY]);
      expect(result.code).toBe(0);
      expect(result.err).toContain(
        `rehearse: warning: this runner is version ${RUNNER_VERSION} but the server at ${url} is version 9.9.9.`,
      );
      expect(result.err).toContain(`npm install ${url}/downloads/rehearse-runner-latest.tgz`);
    } finally {
      serverVersion = RUNNER_VERSION;
    }
    const same = await pull(['--server', url, '--token', KEY]);
    expect(same.err).toBe('');
  });
});
