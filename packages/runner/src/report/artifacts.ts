import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A trace's file extension among the artifacts: `npx playwright show-trace artifacts/<id>.zip`. */
export const TRACE_EXTENSION = 'zip';

/** The folder of a report's artifacts, below its output folder. */
export const ARTIFACTS_DIR = 'artifacts';

/** File name of an artifact: the id (sha256 hex of its bytes) plus an extension for viewers. */
export function artifactFileName(id: string, extension = 'png'): string {
  return `${id}.${extension}`;
}

/**
 * Content-addressed artifact files under `<out>/artifacts` (the only writer of them): the id of an
 * artifact is the sha256 of its bytes, so writing the same screenshot twice stores it once.
 */
export class ArtifactStore {
  readonly dir: string;

  constructor(outDir: string) {
    this.dir = path.join(outDir, ARTIFACTS_DIR);
  }

  /** Stores `bytes` and answers their id. */
  put(bytes: Buffer, extension = 'png'): string {
    const id = createHash('sha256').update(bytes).digest('hex');
    const file = this.fileOf(id, extension);
    if (!existsSync(file)) {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(file, bytes);
    }
    return id;
  }

  fileOf(id: string, extension = 'png'): string {
    return path.join(this.dir, artifactFileName(id, extension));
  }
}
