import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminCalls, authCalls, mailCalls, MASKED_SECRET, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../mail/totp.js';
import { startGitHttpServer, type GitHttpServer } from '../testing/git-http-server.js';
import { failure, joinAsMember, signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { Git } from './git.js';
import { WorkspaceStore } from './workspace.store.js';

/** Every byte git holds for a repository, loose and packed, as text to search in. */
function everythingIn(gitDir: string): string {
  const objects = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-all-objects', '--batch'], { maxBuffer: 1e8 });
  return objects.stdout.toString('latin1');
}

/** Runs git without blocking the event loop; resolves with its exit code. */
function run(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { stdio: 'ignore', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    child.once('close', resolve);
  });
}

const TOTP_SECRET = 'JBSW Y3DP EHPK 3PXP';

describe('test data, mail users, private repositories and crashes', () => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;

  beforeAll(async () => {
    test = await startTestApp('pglite');
    user = await signUp(test, { email: 'data@acme.test' });
    projectId = user.projectId;
  });
  afterAll(async () => test?.close());

  it('encrypts secret and totp rows in git, masks them for the web app and resolves them for a run', async () => {
    const saved = await user.api.call(ws.changeTestData, {
      body: {
        projectId,
        testData: [
          { key: 'user', value: 'demo@rehearse.dev', DataType: 'string', environment: '*' },
          { key: 'password', value: 'hunter2-plain', DataType: 'secret', environment: '*' },
          { key: 'password', value: 'staging-pass', DataType: 'secret', environment: 'default' },
          { key: 'otp', value: TOTP_SECRET, DataType: 'totp', environment: '*' },
          { key: 'half', value: '', DataType: 'string', environment: '*' },
          { key: '', value: 'orphan', DataType: 'string', environment: '*' },
        ],
      },
    });
    expect(saved.dropped).toBe(2);
    expect(saved.testData).toEqual([
      { key: 'user', value: 'demo@rehearse.dev', DataType: 'string', environment: '*' },
      { key: 'password', value: MASKED_SECRET, DataType: 'secret', environment: '*' },
      { key: 'otp', value: MASKED_SECRET, DataType: 'totp', environment: '*' },
      { key: 'password', value: MASKED_SECRET, DataType: 'secret', environment: 'default' },
    ]);
    const repo = everythingIn(test.services.workspaces.store.gitDir(projectId));
    expect(repo).not.toContain('hunter2-plain');
    expect(repo).not.toContain('staging-pass');
    expect(repo).not.toContain('JBSWY3DPEHPK3PXP');

    // Sending the list back unchanged (masked values included) keeps every secret.
    await user.api.call(ws.changeTestData, { body: { projectId, testData: saved.testData } });
    const session = await test.services.workspaces.open(
      { user: user.user },
      await test.services.access.checkMember(user.user.id, projectId, {}),
    );
    const resolved = await test.services.testData.resolveForRun(session, await test.services.workspaces.read(session), 'default');
    expect(resolved.find((row) => row.key === 'password')?.value).toBe('staging-pass');
    expect(resolved.find((row) => row.key === 'user')?.value).toBe('demo@rehearse.dev');

    // The code of the 30 s window the server answered in: the call may cross a window's end.
    const askedAt = Date.now();
    const code = await user.api.call(ws.getTotpCode, { body: { projectId, key: 'otp', environment: '*' } });
    expect([totpCode('JBSWY3DPEHPK3PXP', askedAt).code, totpCode('JBSWY3DPEHPK3PXP').code]).toContain(code.code);

    const duplicate = await failure(
      user.api.call(ws.changeTestData, {
        body: {
          projectId,
          testData: [
            { key: 'a', value: '1', DataType: 'string', environment: '*' },
            { key: 'a', value: '2', DataType: 'string', environment: '*' },
          ],
        },
      }),
    );
    expect(duplicate.message).toBe('This key was added previously');
    const badType = await failure(
      user.api.call(ws.changeTestData, { body: { projectId, testData: [{ key: 'a', value: '1', DataType: 'number', environment: '*' }] } }),
    );
    expect(badType.message).toBe('DataType must be string, secret or totp.');
  });

  it('keeps mail users with encrypted passwords and TOTP secrets', async () => {
    const added = await user.api.call(mailCalls.addUser, {
      body: { project_id: projectId, username: ' qa@acme.test ', password: 'mail-pass', secretKey: TOTP_SECRET },
    });
    expect(added.user).toMatchObject({ username: 'qa@acme.test', password: MASKED_SECRET, hasSecretKey: true });
    expect(
      (await failure(user.api.call(mailCalls.addUser, { body: { project_id: projectId, username: 'qa@acme.test', password: 'x' } })))
        .message,
    ).toBe('A user with this username already exists.');
    expect(
      (await failure(user.api.call(mailCalls.addUser, { body: { project_id: projectId, username: ' ', password: 'x' } }))).message,
    ).toBe('Username and password are required.');
    const totp = await user.api.call(mailCalls.generateTotp, { body: { project_id: projectId, username: 'qa@acme.test' } });
    expect(totp.token).toBe(totpCode('JBSWY3DPEHPK3PXP').code);
    await user.api.call(mailCalls.updateUser, {
      body: { project_id: projectId, prev_username: 'qa@acme.test', username: 'qa2@acme.test', password: MASKED_SECRET, secretKey: '' },
    });
    const { users } = await user.api.call(mailCalls.getUsers, { query: { project_id: projectId } });
    expect(users).toEqual([expect.objectContaining({ username: 'qa2@acme.test', hasSecretKey: false })]);
    const dump = JSON.stringify(await test.database.rows('select * from mail_users'));
    expect(dump).not.toContain('mail-pass');
    await user.api.call(mailCalls.deleteUser, { body: { project_id: projectId, username: 'qa2@acme.test' } });
    expect(
      (await failure(user.api.call(mailCalls.deleteUser, { body: { project_id: projectId, username: 'qa2@acme.test' } }))).httpStatus,
    ).toBe(404);
  });

  describe('private repository over smart HTTP', () => {
    let remote: GitHttpServer;
    const credentials = { username: 'ci-bot', token: 'tok-very-secret-123' };
    beforeAll(async () => {
      remote = await startGitHttpServer(credentials);
    });
    afterAll(async () => remote?.close());
    /** Support (the instance administrator: the test app's first sign-up, `user`) enables the integration. */
    const enableBySupport = async (pid: string, enabled = true) =>
      user.api.call(adminCalls.updateProject, { params: { projectId: pid }, body: { privateRepo: enabled } });

    it('is switched on and off by support alone (spec 01 §6: "Enabling or disabling the integration requires support")', async () => {
      const admin = await signUp(test, { email: 'git-switch@acme.test' });
      const member = await signUp(test, { email: 'git-switch-member@acme.test' });
      await joinAsMember(admin, member, admin.projectId);
      const pid = admin.projectId;
      remote.createRepo('switch');
      const body = { project_id: pid, ...credentials, url: remote.url('switch') };
      // Not enabled: the project's own admin cannot connect it (and so cannot enable it), with the reason.
      const before = await failure(admin.api.call(authCalls.addPrivateRepo, { body }));
      expect([before.httpStatus, before.message]).toEqual([
        409,
        'The private repository integration is not enabled for this project. Support enables it: ask your Rehearse administrator.',
      ]);
      expect(await admin.api.call(authCalls.getAllPrivateRepoInAProject, { query: { project_id: pid } })).toMatchObject({ repos: [] });
      // Nobody but support flips the switch: the project admin, a member and a key are refused.
      const { accessKey } = await admin.api.call(authCalls.createAccessKey, { body: { projectId: pid, name: 'switch' } });
      const refusals = [];
      for (const caller of [admin.api, member.api, test.client(accessKey.token)]) {
        const refused = await failure(caller.call(adminCalls.updateProject, { params: { projectId: pid }, body: { privateRepo: true } }));
        refusals.push([refused.httpStatus, refused.message]);
      }
      expect(refusals).toEqual([
        [403, 'Only an instance administrator can do this.'],
        [403, 'Only an instance administrator can do this.'],
        [403, 'Access keys can only be used for calls about their own project.'],
      ]);
      expect((await admin.api.call(authCalls.getProjects)).projects.find((p) => p.id === pid)).toMatchObject({ privateRepo: false });

      // Support enables it; the project admin connects; the project reads enabled and configured.
      await enableBySupport(pid);
      const connected = await admin.api.call(authCalls.addPrivateRepo, { body });
      expect(connected.project).toMatchObject({ privateRepo: true, configuredPrivateRepo: true });
      await admin.api.call(ws.pushEnv, { body: { projectId: pid, name: 'synced', data: { baseUrl: 'https://synced.example.com' } } });
      const remoteHead = () =>
        spawnSync('git', ['--git-dir', path.join(remote.root, 'switch.git'), 'log', '-1', '--format=%s', 'main'])
          .stdout.toString()
          .trim();
      expect(remoteHead()).toBe('[app:env.create] synced');

      // Support disables it: no longer configured, and the workspace stops pushing to the remote.
      await enableBySupport(pid, false);
      expect((await admin.api.call(authCalls.getProjects)).projects.find((p) => p.id === pid)).toMatchObject({
        privateRepo: false,
        configuredPrivateRepo: false,
      });
      test.services.privateRepos.forget(pid);
      await admin.api.call(ws.pushEnv, { body: { projectId: pid, name: 'local-only', data: { baseUrl: 'https://local.example.com' } } });
      expect(remoteHead()).toBe('[app:env.create] synced');
    });

    it('refuses wrong credentials, then pushes every commit and pulls what others push', async () => {
      const admin = await signUp(test, { email: 'git-admin@acme.test' });
      const pid = admin.projectId;
      remote.createRepo('team');
      await enableBySupport(pid);
      const wrong = await failure(
        admin.api.call(authCalls.addPrivateRepo, {
          body: { project_id: pid, username: 'ci-bot', token: 'wrong', url: remote.url('team') },
        }),
      );
      expect([wrong.httpStatus, wrong.message]).toEqual([400, 'There was an error, please make sure your credentials are correct']);
      const withPassword = await failure(
        admin.api.call(authCalls.addPrivateRepo, {
          body: { project_id: pid, ...credentials, url: remote.url('team').replace('http://', 'http://u:p@') },
        }),
      );
      expect(withPassword.message).toBe('The repository URL must be an http(s) address without a username or password in it.');

      const connected = await admin.api.call(authCalls.addPrivateRepo, {
        body: { project_id: pid, ...credentials, url: remote.url('team') },
      });
      expect(connected.project).toMatchObject({ privateRepo: true, configuredPrivateRepo: true, privateRepoURL: remote.url('team') });
      const remoteDir = path.join(remote.root, 'team.git');
      const remoteHead = () => spawnSync('git', ['--git-dir', remoteDir, 'rev-parse', 'main']).stdout.toString().trim();
      const listedRepo = await admin.api.call(authCalls.getAllPrivateRepoInAProject, { query: { project_id: pid } });
      expect(JSON.stringify(listedRepo)).not.toContain(credentials.token);

      await admin.api.call(ws.pushEnv, { body: { projectId: pid, name: 'pushed', data: { baseUrl: 'https://pushed.example.com' } } });
      const local = (await admin.api.call(ws.getStableVersions, { query: { projectId: pid } })).versions[0]!.commit;
      expect(remoteHead()).toBe(local);

      // Someone pushes to the team repository directly; the next read sees it.
      const clone = mkdtempSync(path.join(tmpdir(), 'rehearse-clone-'));
      const auth = `http.extraHeader=Authorization: Basic ${Buffer.from(`${credentials.username}:${credentials.token}`).toString('base64')}`;
      // Asynchronous on purpose: the remote is served by this very process, so a blocking spawn would deadlock.
      const git = (...args: string[]) => run(['-c', auth, '-C', clone, ...args]);
      expect(await run(['-c', auth, 'clone', '--quiet', remote.url('team'), clone])).toBe(0);
      writeFileSync(path.join(clone, 'environments', 'teammate.json'), '{"name":"teammate","baseUrl":"https://mate.example.com"}\n');
      await git('add', '.');
      await git('-c', 'user.name=Mate', '-c', 'user.email=mate@acme.test', 'commit', '-q', '-m', 'from a teammate');
      expect(await git('push', '-q', 'origin', 'main')).toBe(0);
      test.services.privateRepos.forget(pid);
      const listed = await admin.api.call(ws.getEnvList, { body: { projectId: pid } });
      expect(listed.allEnv.map((e) => e.name)).toContain('teammate.json');

      // A write racing a remote change is refused, never force-pushed.
      writeFileSync(path.join(clone, 'environments', 'race.json'), '{"name":"race","baseUrl":"https://race.example.com"}\n');
      await git('add', '.');
      await git('-c', 'user.name=Mate', '-c', 'user.email=mate@acme.test', 'commit', '-q', '-m', 'racing');
      expect(await git('push', '-q', 'origin', 'main')).toBe(0);
      // Within the fetch interval the server has not seen that push (however slow this machine is).
      test.services.privateRepos.markFetched(pid);
      const raced = await failure(
        admin.api.call(ws.pushEnv, { body: { projectId: pid, name: 'mine', data: { baseUrl: 'https://mine.example.com' } } }),
      );
      expect([raced.httpStatus, raced.message]).toEqual([
        409,
        'The remote repository has changes that conflict with this one. Reload and try again.',
      ]);
      expect(spawnSync('git', ['--git-dir', remoteDir, 'log', '-1', '--format=%s', 'main']).stdout.toString().trim()).toBe('racing');
      test.services.privateRepos.forget(pid);
      const again = await admin.api.call(ws.pushEnv, {
        body: { projectId: pid, name: 'mine', data: { baseUrl: 'https://mine.example.com' } },
      });
      expect(again.env.name).toBe('mine.json');
      expect(spawnSync('git', ['--git-dir', remoteDir, 'log', '-1', '--format=%s', 'main']).stdout.toString().trim()).toBe(
        '[app:env.create] mine',
      );
      // The token is never written to disk in the workspace's git config.
      expect(everythingIn(test.services.workspaces.store.gitDir(pid))).not.toContain(credentials.token);
      expect(
        spawnSync('git', ['--git-dir', test.services.workspaces.store.gitDir(pid), 'config', '--list']).stdout.toString(),
      ).not.toContain(credentials.token);
    });
    it('keeps nothing of a connection that fails after the credentials check: no origin, no stored token, no fetched refs', async () => {
      const admin = await signUp(test, { email: 'git-readonly@acme.test' });
      const pid = admin.projectId;
      await enableBySupport(pid);
      // The token reads but may not push: an empty remote makes the connection push the workspace.
      const dir = remote.createRepo('readonly');
      spawnSync('git', ['--git-dir', dir, 'config', 'http.receivepack', 'false']);
      const refused = await failure(
        admin.api.call(authCalls.addPrivateRepo, { body: { project_id: pid, ...credentials, url: remote.url('readonly') } }),
      );
      // Spec 02, error messages, Git.
      expect([refused.httpStatus, refused.message]).toEqual([400, 'There was an error, please make sure your credentials are correct']);
      const gitDir = test.services.workspaces.store.gitDir(pid);
      expect(spawnSync('git', ['--git-dir', gitDir, 'remote']).stdout.toString().trim()).toBe('');
      expect(spawnSync('git', ['--git-dir', gitDir, 'for-each-ref', 'refs/remotes/']).stdout.toString().trim()).toBe('');
      expect(await test.services.projectSecrets.repository(pid)).toBeNull();
      expect(everythingIn(gitDir)).not.toContain(credentials.token);
      const listed = await admin.api.call(authCalls.getAllPrivateRepoInAProject, { query: { project_id: pid } });
      expect(JSON.stringify(listed)).not.toContain(remote.url('readonly'));
      // The project still works as a plain one.
      const written = await admin.api.call(ws.pushEnv, {
        body: { projectId: pid, name: 'after', data: { baseUrl: 'https://after.example.com' } },
      });
      expect(written.env.name).toBe('after.json');
    });
  });

  it('leaves a complete branch after a writer is killed mid-commit during 20 concurrent writes, with every acknowledged write present', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-crash-'));
    const script = path.join(dir, 'writer.mts');
    const storeModule = fileURLToPath(new URL('./workspace.store.js', import.meta.url)).replace(/\.js$/, '.ts');
    // 20 writers at once, each committing its own file plus 20 shared files per write; every
    // acknowledged write is reported on stdout as "ack <writer> <write> <commit>".
    writeFileSync(
      script,
      `import { WorkspaceStore } from ${JSON.stringify(storeModule)};
const store = new WorkspaceStore(${JSON.stringify(dir)});
const author = { name: 'Crash', email: 'crash@acme.test' };
const git = await store.repo('p', () => ({ projectName: 'crash', defaultEnvironmentUrl: null, author }));
process.stdout.write('ready\\n');
await Promise.all(Array.from({ length: 20 }, async (_, w) => {
  for (let i = 0; ; i++) {
    const { commit } = await store.write(git, 'p', 'main', author, async () => ({
      changes: [
        { path: 'writers/w' + w + '.txt', content: String(i) },
        ...Array.from({ length: 20 }, (_, j) => ({ path: 'many/f' + j + '.txt', content: 'write ' + w + '-' + i + ' file ' + j + '\\n'.repeat(200) })),
      ],
      message: 'writer ' + w + ' write ' + i,
      result: {},
    }));
    process.stdout.write('ack ' + w + ' ' + i + ' ' + commit + '\\n');
  }
}));
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    // Killed once enough writes were acknowledged (event-driven: no fixed wait, however slow the machine).
    const KILL_AFTER_ACKS = 30;
    const acked = new Map<number, { write: number; commit: string }>();
    const ackedCommits: string[] = [];
    await new Promise<void>((resolve, reject) => {
      let pending = '';
      child.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
      child.stdout.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const [word, writer, write, commit] = line.split(' ');
          if (word !== 'ack') continue;
          acked.set(Number(writer), { write: Number(write), commit: commit! });
          ackedCommits.push(commit!);
          if (ackedCommits.length === KILL_AFTER_ACKS) {
            child.kill('SIGKILL');
            resolve();
          }
        }
      });
    });
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

    const store = new WorkspaceStore(dir);
    const author = { name: 'After', email: 'after@acme.test' };
    const git = await store.repo('p', () => ({ projectName: 'crash', defaultEnvironmentUrl: null, author }));
    expect(git.gitDir).toBe(path.join(dir, 'p', 'repo.git'));
    const fsck = spawnSync('git', ['--git-dir', git.gitDir, 'fsck', '--no-dangling', '--strict'], { encoding: 'utf8' });
    expect(fsck.stderr).toBe('');
    expect(fsck.status).toBe(0);
    const snapshot = await store.snapshot(git, 'p', 'main');
    // Every acknowledged write is on the branch: its commit is in the history, its file at least that far.
    const history = new Set((await new Git(git.gitDir).log('main', 100_000)).map((entry) => entry.commit));
    expect(ackedCommits.filter((commit) => !history.has(commit))).toEqual([]);
    for (const [writer, { write }] of acked)
      expect(Number(await snapshot.readText(`writers/w${writer}.txt`))).toBeGreaterThanOrEqual(write);
    // Each commit writes all 20 shared files together: a branch head never shows a partial write.
    const files = await snapshot.list('many');
    const contents = new Set((await Promise.all(files.map((f) => snapshot.readText(f.path)))).map((text) => text?.split(' file ')[0]));
    expect([files.length, contents.size]).toEqual([20, 1]);
    await store.write(git, 'p', 'main', author, async () => ({
      changes: [{ path: 'after.txt', content: 'ok\n' }],
      message: 'after crash',
      result: {},
    }));
    expect((await new Git(git.gitDir).log('main', 1))[0]?.subject).toBe('after crash');
    await store.close();
    expect(git.helperPids()).toEqual([]);
  });
});
