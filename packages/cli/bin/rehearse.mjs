#!/usr/bin/env node
// The package ships TypeScript source (like every package of this monorepo) and Node 20 cannot
// strip types, so the bin stays plain JavaScript and registers tsx's ESM hooks before importing
// the CLI. The same hooks then serve cucumber-js when it imports the support code.
import { register } from 'tsx/esm/api';

register();
globalThis[Symbol.for('rehearse.tsx')] = true;

const { runCli } = await import('../src/index.ts');
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// Exit on our own if a stray handle (a browser that would not close) keeps the process alive.
globalThis.setTimeout(() => process.exit(code), 5_000).unref();
