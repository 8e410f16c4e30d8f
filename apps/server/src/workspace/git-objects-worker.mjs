// The thread that writes git's loose objects (git-objects-thread.ts is its only caller, for
// git.ts). Creating a file costs this machine's file system about half a millisecond; written on
// the server's thread, a commit's five or so objects held every request behind it that long.
// Plain JavaScript because worker threads start outside the TypeScript loader (as pglite-worker.mjs).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';

/** Fan-out folders known to exist: objects are never deleted under a running server but by `git gc`, which keeps the folders. */
const folders = new Set();

/**
 * Writes one loose object the way git does: deflated into a temporary file in the object folder,
 * then renamed into place, so a reader (or a crash) never sees half an object.
 */
function writeObject(objectsDir, oid, data) {
  const dir = path.join(objectsDir, oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  if (existsSync(file)) return;
  const compressed = deflateSync(data);
  if (!folders.has(dir)) {
    mkdirSync(dir, { recursive: true });
    folders.add(dir);
  }
  const temporary = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(temporary, compressed, { mode: 0o444 });
  } catch (error) {
    // The folder went away (a repository deleted and made again): make it and write once more.
    if (error?.code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, compressed, { mode: 0o444 });
  }
  renameSync(temporary, file);
}

parentPort.on('message', ({ id, objectsDir, objects }) => {
  try {
    for (const { oid, data } of objects) writeObject(objectsDir, oid, data);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
