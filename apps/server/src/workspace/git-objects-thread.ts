import { Worker } from 'node:worker_threads';

/** One object to store: its id and its uncompressed bytes (header and body, as git hashes them). */
export interface LooseObject {
  oid: string;
  data: Buffer;
}

interface Pending {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Writes loose objects on a thread of its own (git-objects-worker.mjs), one message per commit,
 * for git.ts only. One thread serves every repository of the process; it starts on first use,
 * keeps the process alive only while a write is waiting, and starts again after a crash.
 */
class GitObjectsThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** Resolves once every object is in place (already present ones are left alone). */
  write(objectsDir: string, objects: LooseObject[]): Promise<void> {
    if (objects.length === 0) return Promise.resolve();
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, objectsDir, objects });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./git-objects-worker.mjs', import.meta.url));
    worker.unref();
    worker.on('message', ({ id, error }: { id: number; error?: string }) => {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      if (error === undefined) pending?.resolve();
      else pending?.reject(new Error(`writing git objects failed: ${error}`));
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the git object writer stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The process's one object writer. */
export const gitObjects = new GitObjectsThread();
