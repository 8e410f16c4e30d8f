import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';

type Request =
  | { kind: 'query'; sql: string; params: unknown[] | undefined; options: WireOptions | undefined }
  | { kind: 'exec'; sql: string }
  | { kind: 'dump' }
  | { kind: 'close' };

/** Query options as they cross the thread: parsers are functions, so only identity ones, by type id. */
interface WireOptions {
  rowMode: QueryOptions['rowMode'];
  textTypes: number[];
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** What both the database and a transaction on it can run. */
interface Runner {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

/**
 * The embedded database (PGlite) on a thread of its own (pglite-worker.mjs), answering the same
 * calls drizzle makes of PGlite: `query`, `exec` and `transaction`. Moving it off the main thread
 * lets the server parse requests, read git and write answers while the database works: on two
 * cores under load the database was about half of the main thread's time.
 *
 * Semantics kept from PGlite: requests run one at a time in the order they were sent, and a
 * transaction holds the database's only session, so a query outside it waits until it ends (a
 * query sent before it began runs before it). Only identity result parsers are supported (drizzle
 * passes those, for timestamps it parses itself); a parser that changed values could not cross.
 */
export class PGliteThread implements Runner {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Set while a transaction holds the session; outside queries wait for it. */
  private transactionEnded: Promise<void> | undefined;
  private stopped: Error | undefined;
  readonly waitReady: Promise<void>;

  /**
   * @param dataDir where the database lives; in memory when undefined.
   * @param contents a database to start from (a `dump()`), instead of an empty one.
   */
  constructor(dataDir: string | undefined, contents?: ArrayBuffer) {
    this.worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir, contents } });
    const ready = new Promise<unknown>((resolve, reject) => this.pending.set(0, { resolve, reject }));
    // The thread waits for PostgreSQL's compiled code before it starts it.
    sharedArtifacts().then(
      (artifacts) => this.worker.postMessage({ id: 0, kind: 'start', ...artifacts }),
      (error: unknown) => this.fail(error instanceof Error ? error : new Error(String(error))),
    );
    this.waitReady = ready.then(() => undefined);
    this.worker.on('message', (message: { id: number; result?: unknown; error?: Record<string, unknown> & { message: string } }) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(Object.assign(new Error(message.error.message), message.error));
      else waiting.resolve(message.result);
      this.holdProcess();
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`The embedded database's thread stopped (exit code ${code})`)));
  }

  async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    while (this.transactionEnded) await this.transactionEnded;
    return this.send({ kind: 'query', sql, params, options: wireOptions(options) }) as Promise<Results<T>>;
  }

  async exec(sql: string): Promise<Results[]> {
    while (this.transactionEnded) await this.transactionEnded;
    return this.send({ kind: 'exec', sql }) as Promise<Results[]>;
  }

  async transaction<T>(run: (tx: Transaction) => Promise<T>): Promise<T> {
    // Checked and taken in one turn of the event loop, so two transactions never both start.
    while (this.transactionEnded) await this.transactionEnded;
    let end!: () => void;
    this.transactionEnded = new Promise<void>((resolve) => (end = resolve));
    let closed = false;
    const ensureOpen = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
        ensureOpen();
        return this.send({ kind: 'query', sql, params, options: wireOptions(options) }) as Promise<Results<R>>;
      },
      exec: (sql: string) => {
        ensureOpen();
        return this.send({ kind: 'exec', sql }) as Promise<Results[]>;
      },
      rollback: async () => {
        ensureOpen();
        await this.send({ kind: 'exec', sql: 'ROLLBACK' });
        closed = true;
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    try {
      await this.send({ kind: 'exec', sql: 'BEGIN' });
      const result = await run(tx);
      if (!closed) {
        closed = true;
        const [commit] = (await this.send({ kind: 'exec', sql: 'COMMIT' })) as (Results & { command?: string })[];
        // PostgreSQL answers COMMIT with ROLLBACK when a statement inside failed and was caught.
        if (commit?.command === 'ROLLBACK') throw new Error('The transaction was rolled back: a statement in it failed');
      }
      return result;
    } catch (error) {
      if (!closed) {
        closed = true;
        await this.send({ kind: 'exec', sql: 'ROLLBACK' }).catch(() => undefined);
      }
      throw error;
    } finally {
      this.transactionEnded = undefined;
      end();
    }
  }

  /** The whole database as a tarball, to start others from (`contents`). */
  async dump(): Promise<ArrayBuffer> {
    while (this.transactionEnded) await this.transactionEnded;
    return this.send({ kind: 'dump' }) as Promise<ArrayBuffer>;
  }

  async close(): Promise<void> {
    if (!this.stopped) await this.send({ kind: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  /** The PGlite surface drizzle's driver calls (query, exec, transaction), typed as PGlite for it. */
  asPGlite(): PGlite {
    return this as unknown as PGlite;
  }

  private send(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.holdProcess();
    this.worker.postMessage({ id, ...request });
    return answer;
  }

  /** The thread keeps the process alive only while an answer is awaited, as a socket would. */
  private holdProcess(): void {
    if (this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }

  private fail(error: Error): void {
    this.stopped ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }
}

function wireOptions(options: QueryOptions | undefined): WireOptions | undefined {
  if (!options) return undefined;
  return { rowMode: options.rowMode, textTypes: Object.keys(options.parsers ?? {}).map(Number) };
}

interface Artifacts {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: ArrayBuffer;
}

let artifacts: Promise<Artifacts> | undefined;

/** Node's WebAssembly global (the server's TypeScript libraries declare only its types). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }).WebAssembly;

/**
 * PostgreSQL's WebAssembly, compiled once per process and handed to every database thread (a
 * compiled module crosses threads without being compiled again), and its file bundle read once:
 * compiling it in each thread cost seconds of CPU per database, and tests start hundreds.
 */
function sharedArtifacts(): Promise<Artifacts> {
  artifacts ??= (async () => {
    const dist = (name: string) => new URL(name, import.meta.resolve('@electric-sql/pglite'));
    const [pglite, initdb, bundle] = await Promise.all([
      readFile(dist('pglite.wasm')),
      readFile(dist('initdb.wasm')),
      readFile(dist('pglite.data')),
    ]);
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([wasm.compile(pglite), wasm.compile(initdb)]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: bundle.buffer.slice(bundle.byteOffset, bundle.byteOffset + bundle.byteLength) };
  })();
  return artifacts;
}
