import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The only door to artifact bytes: content-addressed files under DATA_DIR/artifacts, named by the
 * sha256 of their bytes, written through a temporary file so a crash never leaves half a file.
 */
export class ArtifactStore {
  constructor(private readonly root: string) {}

  private fileOf(id: string): string {
    return path.join(this.root, id.slice(0, 2), id);
  }

  /** The id `put` stores `bytes` under: the sha256 of the bytes, in hex. */
  static idOf(bytes: Buffer): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** Stores `bytes` under `id`, which must be `idOf(bytes)` (the caller has it already: hashing twice cost a millisecond a screenshot). */
  async put(id: string, bytes: Buffer): Promise<void> {
    const file = this.fileOf(id);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  }

  async get(id: string): Promise<Buffer | null> {
    if (!/^[0-9a-f]{64}$/.test(id)) return null;
    return readFile(this.fileOf(id)).catch(() => null);
  }

  /**
   * Removes the bytes of an artifact no project stores any more (retention), unless they were
   * written after `writtenBefore`: an upload of the same bytes that raced the sweep keeps its file.
   */
  async delete(id: string, writtenBefore: Date): Promise<void> {
    if (!/^[0-9a-f]{64}$/.test(id)) return;
    const file = this.fileOf(id);
    const written = await stat(file).catch(() => null);
    if (written && written.mtime < writtenBefore) await rm(file, { force: true });
  }
}
