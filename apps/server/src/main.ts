import path from 'node:path';
import { buildApp, jobSandbox } from './app.js';
import { openDatabase } from './db/database.js';
import { listenHost, loadSettings } from './env.js';
import { decideStartMode } from './start-mode.js';

/** Grace period for open requests and sockets before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  let settings;
  try {
    settings = loadSettings();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  // Jobs run tenant code: a machine that cannot sandbox them starts as a local single-user install
  // (or refuses, when asked to listen beyond this machine); see start-mode.ts.
  let notice: string | undefined;
  try {
    ({ settings, notice } = await decideStartMode(settings));
    if (settings.WORKER_PROCESSES > 0 || settings.LOCAL_WORKERS > 0) await jobSandbox(settings);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  if (settings.localSingleUser) {
    // Processes this one starts (workers) follow the same decision.
    process.env.HOST = settings.HOST;
    process.env.REHEARSE_UNSANDBOXED_WORKERS = '1';
    console.warn(notice);
  }
  const database = await openDatabase({
    url: settings.DATABASE_URL,
    pgliteDir: path.join(settings.dataDir, 'pglite'),
    ...(settings.DATABASE_URL ? { schemaName: settings.DATABASE_SCHEMA } : {}),
  });
  const { app, services } = await buildApp({ settings, database });
  if (database.kind === 'pglite') {
    // PGlite runs no autovacuum: refresh planner statistics now and then so queries keep their indexes.
    const analyze = setInterval(() => {
      database.execute('ANALYZE').catch((error: unknown) => app.log.warn({ err: error }, 'ANALYZE failed'));
    }, 10 * 60_000);
    analyze.unref();
    app.addHook('onClose', async () => clearInterval(analyze));
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    // The database closes after the app, not in an onClose hook: those run last-registered first,
    // so one added here ended the pool before the socket.io adapter gave back its LISTEN client,
    // and the pool waited for that client until the timeout above (exit 1 on every PostgreSQL stop).
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: settings.PORT, host: listenHost(settings) });
  app.log.info({ roles: settings.REHEARSE_ROLES, instance: services.instanceId }, `Running ${settings.REHEARSE_ROLES.join(', ')}`);
  app.log.info(
    { url: settings.publicUrl, database: database.kind, dataDir: settings.dataDir },
    `Rehearse is ready at ${settings.publicUrl} (demo shop at ${settings.publicUrl}/demo-shop/)`,
  );
}

main().catch((error: unknown) => {
  console.error('Rehearse failed to start:', error);
  process.exit(1);
});
