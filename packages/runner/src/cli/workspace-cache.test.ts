import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceCache } from './workspace-cache.js';

const PROJECT = '22222222-2222-4222-8222-222222222222';
const commit = (n: number) => String(n).repeat(40).slice(0, 40);

describe('a worker thread’s workspace cache', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'rehearse-cache-test-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A pull that writes the commit it was asked for, and counts itself. */
  const pulls: string[] = [];
  const pullOf = (id: string) => async (dir: string) => {
    pulls.push(id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'commit.txt'), id);
  };

  it('pulls a commit once and serves every later job of it from the same folder', async () => {
    const cache = new WorkspaceCache(root, 2);
    const first = await cache.get(PROJECT, commit(1), pullOf(commit(1)));
    const again = await cache.get(PROJECT, commit(1), pullOf(commit(1)));
    expect(again).toBe(first);
    expect(pulls).toEqual([commit(1)]);
    expect(readFileSync(path.join(first, 'commit.txt'), 'utf8')).toBe(commit(1));

    // Another commit (the branch moved on for the next run) is another folder, never the old files.
    const second = await cache.get(PROJECT, commit(2), pullOf(commit(2)));
    expect(second).not.toBe(first);
    expect(readFileSync(path.join(second, 'commit.txt'), 'utf8')).toBe(commit(2));
  });

  it('drops the least recently used workspace, folder included, beyond what it keeps', async () => {
    pulls.length = 0;
    const cache = new WorkspaceCache(root, 2);
    const one = await cache.get(PROJECT, commit(3), pullOf(commit(3)));
    const two = await cache.get(PROJECT, commit(4), pullOf(commit(4)));
    await cache.get(PROJECT, commit(3), pullOf(commit(3))); // 3 is now the most recent
    await cache.get(PROJECT, commit(5), pullOf(commit(5)));
    expect(cache.size).toBe(2);
    expect(existsSync(two)).toBe(false);
    expect(existsSync(one)).toBe(true);
    expect(pulls).toEqual([commit(3), commit(4), commit(5)]);
  });

  it('does not keep a failed pull: the next job of the commit pulls again into a clean folder', async () => {
    const cache = new WorkspaceCache(root, 2);
    const failing = async (dir: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'half.txt'), 'half a download');
      throw new Error('Could not download the workspace.');
    };
    await expect(cache.get(PROJECT, commit(6), failing)).rejects.toThrow('Could not download the workspace.');
    expect(cache.size).toBe(0);
    const dir = await cache.get(PROJECT, commit(6), pullOf(commit(6)));
    expect(existsSync(path.join(dir, 'half.txt'))).toBe(false);
    expect(readFileSync(path.join(dir, 'commit.txt'), 'utf8')).toBe(commit(6));
  });
});
