import { spawnSync } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blobId, Git, GitRefConflict, type FileChange } from './git.js';
import { WorkspaceStore } from './workspace.store.js';

const author = { name: 'Ada Lovelace', email: 'ada@acme.test' };

function git(gitDir: string, args: string[], input?: string, env: Record<string, string> = {}): string {
  const result = spawnSync('git', ['--git-dir', gitDir, ...args], { input, encoding: 'utf8', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** The tree git itself builds for the same files, through an index (the previous write path). */
function treeByGitIndex(gitDir: string, files: Record<string, string>): string {
  const index = path.join(mkdtempSync(path.join(tmpdir(), 'rehearse-index-')), 'index');
  const lines = Object.entries(files).map(([file, content]) => `100644 ${git(gitDir, ['hash-object', '-w', '--stdin'], content)}\t${file}`);
  git(gitDir, ['update-index', '--add', '--index-info'], `${lines.join('\n')}\n`, { GIT_INDEX_FILE: index });
  return git(gitDir, ['write-tree'], undefined, { GIT_INDEX_FILE: index });
}

async function newRepo(): Promise<Git> {
  return Git.initBare(path.join(mkdtempSync(path.join(tmpdir(), 'rehearse-git-')), 'repo.git'));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('git door', () => {
  it('stops a remote command at its deadline when the remote never answers, with every process it started', async () => {
    // A proxy that takes the connection and never says a word: git would wait for ever.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const repo = await newRepo();
    const remoteUrl = `http://silent-remote.test/${path.basename(path.dirname(repo.gitDir))}.git`;
    try {
      const remote = repo.forRemote({ username: 'u', token: 't' }, `http://127.0.0.1:${port}`, 2_000);
      const started = Date.now();
      await expect(remote.lsRemote(remoteUrl)).rejects.toThrow('git ls-remote did not finish within 2 seconds and was stopped');
      await expect(remote.fetchOrigin(remoteUrl)).rejects.toThrow('git fetch did not finish within 2 seconds and was stopped');
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(sockets.length).toBeGreaterThanOrEqual(2);
      // Nothing of either command is left running (git-remote-http included).
      const left = spawnSync('pgrep', ['-f', remoteUrl], { encoding: 'utf8' });
      expect(left.stdout.trim()).toBe('');
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
      await repo.close();
    }
  });

  it('reads branch heads as git does: loose refs, packed refs, a branch moved by another git, and missing or directory-shaped names', async () => {
    const repo = await newRepo();
    try {
      const first = await repo.commit('main', null, [{ path: 'a.txt', content: 'a\n' }], author, 'first');
      expect(await repo.revParse('refs/heads/main')).toBe(git(repo.gitDir, ['rev-parse', 'refs/heads/main']));
      // Packed (what `git gc` does): no loose file is left, and the head is still found.
      git(repo.gitDir, ['pack-refs', '--all']);
      expect(git(repo.gitDir, ['for-each-ref', '--format=%(refname)'])).toContain('refs/heads/main');
      expect(await repo.revParse('refs/heads/main')).toBe(first.commit);
      // Another git process moves the branch (a fetch, another server): the next read sees it.
      const second = await repo.commit('main', first.commit, [{ path: 'b.txt', content: 'b\n' }], author, 'second');
      git(repo.gitDir, ['update-ref', 'refs/heads/topic/one', first.commit]);
      expect(await repo.revParse('refs/heads/main')).toBe(second.commit);
      expect(await repo.revParse('refs/heads/topic/one')).toBe(first.commit);
      // `refs/heads/topic` is a folder of refs, not a branch; unknown and unsafe names are no branch.
      expect(await repo.revParse('refs/heads/topic')).toBeNull();
      expect(await repo.revParse('refs/heads/nothing')).toBeNull();
      expect(await repo.revParse('refs/heads/../../config')).toBeNull();
      git(repo.gitDir, ['update-ref', '-d', 'refs/heads/topic/one']);
      expect(await repo.revParse('refs/heads/topic/one')).toBeNull();
    } finally {
      await repo.close();
    }
  });

  it('writes the same trees git builds from an index, rewriting only changed paths, and fsck finds nothing wrong', async () => {
    const repo = await newRepo();
    try {
      // Names that test git's tree order (a tree sorts as "name/": "a-b" < "a.b" < "a/" < "a0").
      const files: Record<string, string> = {
        'a/x.txt': 'x\n',
        'a/deep/y.feature': 'Feature: Y\n',
        'a-b': 'dash\n',
        'a.b': 'dot\n',
        a0: 'zero\n',
        'features/checkout.feature': 'Feature: Checkout\n',
        'features/step_definitions/.gitkeep': '',
      };
      const first = await repo.commit(
        'main',
        null,
        Object.entries(files).map(([p, content]) => ({ path: p, content })),
        author,
        'first',
      );
      expect(first.changed).toBe(true);
      expect(git(repo.gitDir, ['rev-parse', `${first.commit}^{tree}`])).toBe(treeByGitIndex(repo.gitDir, files));

      // Change one nested file, delete the only file of a folder (the folder goes), add one.
      const changes: FileChange[] = [
        { path: 'a/deep/y.feature', content: null },
        { path: 'a/x.txt', content: 'x changed\n' },
        { path: 'notes/new.txt', content: 'new\n' },
      ];
      const second = await repo.commit('main', first.commit, changes, author, 'second');
      const after: Record<string, string> = { ...files, 'a/x.txt': 'x changed\n', 'notes/new.txt': 'new\n' };
      delete after['a/deep/y.feature'];
      expect(git(repo.gitDir, ['rev-parse', `${second.commit}^{tree}`])).toBe(treeByGitIndex(repo.gitDir, after));
      expect(git(repo.gitDir, ['rev-parse', `${second.commit}^`])).toBe(first.commit);
      // Unchanged folders keep their tree object; the commit records its author and message.
      expect(git(repo.gitDir, ['rev-parse', `${second.commit}:features`])).toBe(
        git(repo.gitDir, ['rev-parse', `${first.commit}:features`]),
      );
      expect(git(repo.gitDir, ['log', '-1', '--format=%an <%ae>|%cn|%s', 'main'])).toBe('Ada Lovelace <ada@acme.test>|Ada Lovelace|second');

      // Writing the same contents again changes nothing and makes no commit.
      const same = await repo.commit('main', second.commit, [{ path: 'a/x.txt', content: 'x changed\n' }], author, 'noop');
      expect(same).toEqual({ commit: second.commit, changed: false });

      expect(await repo.readFile(second.commit, 'a/x.txt')).toEqual(Buffer.from('x changed\n'));
      expect(await repo.readFile(second.commit, 'a')).toBeNull();
      expect(await repo.readFile(second.commit, 'a/deep/y.feature')).toBeNull();
      expect(await repo.listTree(second.commit, 'a')).toEqual([{ path: 'a/x.txt', oid: blobId('x changed\n'), size: 10 }]);
      expect(blobId('x changed\n')).toBe(git(repo.gitDir, ['hash-object', '--stdin'], 'x changed\n'));
      const fsck = spawnSync('git', ['--git-dir', repo.gitDir, 'fsck', '--strict', '--no-dangling'], { encoding: 'utf8' });
      expect([fsck.status, fsck.stderr]).toEqual([0, '']);
    } finally {
      await repo.close();
    }
  });

  it('writes objects on its writer thread before the branch moves, and writes them again into a repository deleted and made anew at the same path', async () => {
    const first = await newRepo();
    const files: FileChange[] = [
      { path: 'features/checkout.feature', content: 'Feature: Checkout\n' },
      { path: 'data/data.json', content: '{}\n' },
    ];
    await first.commit('main', null, files, author, 'first');
    // git itself finds every object of the commit the branch points at.
    expect(git(first.gitDir, ['cat-file', '-p', 'main:features/checkout.feature'])).toBe('Feature: Checkout');
    const tree = git(first.gitDir, ['rev-parse', 'main^{tree}']);
    await first.close();
    rmSync(first.gitDir, { recursive: true, force: true });

    // The same objects again: the writer thread knew their folders, which are gone now.
    const again = await Git.initBare(first.gitDir);
    try {
      const recommitted = await again.commit('main', null, files, author, 'first');
      expect(git(again.gitDir, ['rev-parse', `${recommitted.commit}^{tree}`])).toBe(tree);
      expect(git(again.gitDir, ['cat-file', '-p', 'main:data/data.json'])).toBe('{}');
      const fsck = spawnSync('git', ['--git-dir', again.gitDir, 'fsck', '--strict', '--no-dangling'], { encoding: 'utf8' });
      expect([fsck.status, fsck.stderr]).toEqual([0, '']);
    } finally {
      await again.close();
    }
  });

  it('cannot be made to forge commit headers through an author name, and refuses unsafe paths', async () => {
    const repo = await newRepo();
    try {
      const { commit } = await repo.commit(
        'main',
        null,
        [{ path: 'f.txt', content: 'f\n' }],
        { name: 'Eve\ncommitter Mallory <mallory@evil.test> 0 +0000\n<x>', email: 'eve@acme.test>\nparent 0' },
        'hello',
      );
      const headers = git(repo.gitDir, ['cat-file', 'commit', commit]).split('\n\n')[0]!.split('\n');
      expect(headers.map((line) => line.split(' ')[0])).toEqual(['tree', 'author', 'committer']);
      const fsck = spawnSync('git', ['--git-dir', repo.gitDir, 'fsck', '--strict', '--no-dangling'], { encoding: 'utf8' });
      expect([fsck.status, fsck.stderr]).toEqual([0, '']);
      for (const bad of ['../x', 'a//b', '.git/config', 'a/.GIT/x', './x']) {
        await expect(repo.commit('main', commit, [{ path: bad, content: 'x' }], author, 'bad')).rejects.toThrow(/unsafe path/);
      }
      await expect(repo.commit('main\nupdate refs/heads/x', commit, [], author, 'bad')).rejects.toThrow(/unsafe branch/);
      expect(await repo.revParse('main\ninfo HEAD')).toBeNull();
      expect(git(repo.gitDir, ['rev-parse', 'main'])).toBe(commit);
    } finally {
      await repo.close();
    }
  });

  it('moves the branch by compare-and-swap: a writer whose head is stale (another process won) gets a conflict and the branch keeps the winner', async () => {
    const one = await newRepo();
    // A second door on the same repository has its own helpers, like another server process.
    const other = new Git(one.gitDir);
    try {
      const base = await one.commit('main', null, [{ path: 'f.txt', content: '0\n' }], author, 'base');
      const won = await other.commit('main', base.commit, [{ path: 'f.txt', content: 'other\n' }], author, 'other wins');
      await expect(one.commit('main', base.commit, [{ path: 'f.txt', content: 'one\n' }], author, 'one loses')).rejects.toBeInstanceOf(
        GitRefConflict,
      );
      expect(await one.revParse('refs/heads/main')).toBe(won.commit);
      // The helper that refused is replaced: the retry from the new head lands.
      const retried = await one.commit('main', won.commit, [{ path: 'f.txt', content: 'one\n' }], author, 'one retries');
      expect(git(one.gitDir, ['log', '--format=%s', 'main']).split('\n')).toEqual(['one retries', 'other wins', 'base']);
      expect(retried.changed).toBe(true);
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });

  it('restarts a helper that crashed, and leaves no git process behind once closed', async () => {
    const repo = await newRepo();
    const { commit } = await repo.commit('main', null, [{ path: 'f.txt', content: 'f\n' }], author, 'first');
    expect(await repo.readFile(commit, 'f.txt')).toEqual(Buffer.from('f\n'));
    const started = repo.helperPids();
    expect(started).toHaveLength(2);
    for (const pid of started) process.kill(pid, 'SIGKILL');
    await expect.poll(() => repo.helperPids().length).toBe(0);
    expect(await repo.readFile(commit, 'f.txt')).toEqual(Buffer.from('f\n'));
    const next = await repo.commit('main', commit, [{ path: 'g.txt', content: 'g\n' }], author, 'second');
    expect(next.changed).toBe(true);
    const restarted = repo.helperPids();
    expect(restarted).toHaveLength(2);
    await repo.close();
    expect(repo.helperPids()).toEqual([]);
    expect([...started, ...restarted].filter(alive)).toEqual([]);
  });

  it('lands every write of two stores (two processes) writing to one project at once, each as its own commit', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'rehearse-stores-'));
    const stores = [new WorkspaceStore(root), new WorkspaceStore(root)];
    const seed = () => ({ projectName: 'p', defaultEnvironmentUrl: null, author });
    try {
      const first = await stores[0]!.repo('p', seed);
      const second = await stores[1]!.repo('p', seed);
      const writes = [first, second].flatMap((repo, s) =>
        Array.from({ length: 5 }, (_, i) =>
          stores[s]!.write(repo, 'p', 'main', { name: `Writer ${s}`, email: `w${s}@acme.test` }, async (snapshot) => ({
            changes: [{ path: `w${s}/f${i}.txt`, content: `${snapshot.commit}\n` }],
            message: `store ${s} write ${i}`,
            result: {},
          })),
        ),
      );
      await Promise.all(writes);
      const subjects = git(first.gitDir, ['log', '--format=%s|%an', 'main']).split('\n');
      expect(subjects).toHaveLength(11);
      for (let s = 0; s < 2; s += 1) for (let i = 0; i < 5; i += 1) expect(subjects).toContain(`store ${s} write ${i}|Writer ${s}`);
      expect(
        git(first.gitDir, ['ls-tree', '-r', '--name-only', 'main'])
          .split('\n')
          .filter((name) => /^w\d\//.test(name)),
      ).toHaveLength(10);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
