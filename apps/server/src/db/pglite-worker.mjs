// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so its
// query work no longer shares the server's event loop with HTTP, JSON and git. database.ts is the
// only caller (PGliteThread in pglite-thread.ts); this file is plain JavaScript because worker threads are started by
// Node itself, outside the TypeScript loader the server runs under (tsx's loader does not reach
// workers on Node 20).
import { Blob } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const { dataDir, contents } = workerData;
/** Started by the first message, which brings PostgreSQL's code compiled once for the whole process. */
let database;

function start({ pgliteWasmModule, initdbWasmModule, fsBundle }) {
  database = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    // pg_trgm backs the reports search index (migration 0006).
    extensions: { pg_trgm },
    pgliteWasmModule,
    initdbWasmModule,
    fsBundle: new Blob([fsBundle]),
    // A database to start from (a template made by `dump`) instead of running initdb.
    ...(contents ? { loadDataDir: new Blob([contents]) } : {}),
  });
  return database.waitReady;
}

/** Only identity parsers cross the thread boundary (drizzle hands timestamps over as text): named by type id. */
function queryOptions(options) {
  if (!options) return undefined;
  const parsers = Object.fromEntries((options.textTypes ?? []).map((type) => [type, (value) => value]));
  return { rowMode: options.rowMode, parsers };
}

/** What an error carries across: its message and PostgreSQL's fields (code, constraint, detail, …), which are plain values. */
function serializeError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message };
}

async function handle(request) {
  switch (request.kind) {
    case 'query':
      return database.query(request.sql, request.params, queryOptions(request.options));
    case 'exec':
      return database.exec(request.sql);
    case 'dump':
      return (await database.dumpDataDir('none')).arrayBuffer();
    case 'close':
      await database.close();
      return null;
    default:
      throw new Error(`unknown request ${request.kind}`);
  }
}

// The first message brings PostgreSQL's code; requests sent before it wait for the database to start.
let markStarted;
const started = new Promise((resolve) => (markStarted = resolve));

// One request at a time, in the order they came: transactions rely on it (PGlite has one session).
let tail = started;
parentPort.on('message', (request) => {
  if (request.kind === 'start') {
    start(request).then(
      () => {
        markStarted();
        parentPort.postMessage({ id: request.id, result: 'ready' });
      },
      (error) => parentPort.postMessage({ id: request.id, error: serializeError(error) }),
    );
    return;
  }
  tail = tail.then(async () => {
    try {
      parentPort.postMessage({ id: request.id, result: await handle(request) });
    } catch (error) {
      parentPort.postMessage({ id: request.id, error: serializeError(error) });
    }
  });
});
