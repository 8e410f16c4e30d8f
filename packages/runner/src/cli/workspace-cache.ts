import { rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The workspaces a worker thread pulled, one folder per project and commit. A commit's files never
 * change and a run never writes into its workspace, so every scenario of an execution (all pinned
 * to one commit) reuses the first pull. The least recently used folders go once more than `keep`
 * are held, so a long-lived thread does not fill the disk.
 */
export class WorkspaceCache {
  /** Insertion order is recency: a hit moves its entry to the end. */
  private readonly entries = new Map<string, { dir: string; ready: Promise<string> }>();

  constructor(
    private readonly root: string,
    private readonly keep = 2,
  ) {}

  /** The folder holding `commit` of the project, calling `pull(folder)` to fill it the first time. */
  async get(projectId: string, commit: string, pull: (dir: string) => Promise<void>): Promise<string> {
    const key = `${projectId}@${commit}`;
    const held = this.entries.get(key);
    if (held) {
      this.entries.delete(key);
      this.entries.set(key, held);
      return held.ready;
    }
    const dir = path.join(this.root, `${projectId}-${commit}`);
    const entry = {
      dir,
      ready: (async () => {
        // A pull that failed half-way may have left files behind.
        await rm(dir, { recursive: true, force: true });
        await pull(dir);
        return dir;
      })(),
    };
    this.entries.set(key, entry);
    // A failed pull is not cached: the next job of the commit tries again.
    entry.ready.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    await this.evict();
    return entry.ready;
  }

  /** How many workspaces are held (pulled or being pulled). */
  get size(): number {
    return this.entries.size;
  }

  private async evict(): Promise<void> {
    while (this.entries.size > this.keep) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, { dir: string; ready: Promise<string> }];
      this.entries.delete(oldestKey);
      await oldest.ready.catch(() => undefined);
      await rm(oldest.dir, { recursive: true, force: true });
    }
  }
}
