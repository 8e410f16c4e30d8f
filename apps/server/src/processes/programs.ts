import { fileURLToPath } from 'node:url';

/**
 * The browser programs this server starts as child processes, found beside it in the repository
 * (`npm install` installs every workspace; the container image copies the same tree). They are
 * not dependencies of the server: it starts them and talks to them over IPC and HTTP, and never
 * loads their code, so the API process holds no browser (lint enforces it).
 */
const inRepository = (relative: string) => fileURLToPath(new URL(`../../../../${relative}`, import.meta.url));

/** The `rehearse` CLI (packages/cli): workers, and "Run scenario" jobs inside the job sandbox. */
export const RUNNER_BIN = inRepository('packages/cli/bin/rehearse.mjs');

/** A cloud recorder session's own process (one per session, with its own Chromium). */
export const RECORDER_BIN = inRepository('packages/recorder/bin/recorder-process.mjs');
