#!/usr/bin/env node
// The installed package's `rehearse`: plain JavaScript built by pack/build.ts, so no tsx.
import { runCli } from '../dist/cli.js';

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// Exit on our own if a stray handle (a browser that would not close) keeps the process alive.
globalThis.setTimeout(() => process.exit(code), 5_000).unref();
