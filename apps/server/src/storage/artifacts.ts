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

  async put(bytes: Buffer): Promise<string> {
    const id = createHash('sha256').update(bytes).digest('hex');
    const file = this.fileOf(id);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
    return id;
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
