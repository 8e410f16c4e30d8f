#!/usr/bin/env node
// A cloud recorder session's own process (see src/process-main.ts). Plain JavaScript for the same
// reason as the runner's bin: the package ships TypeScript and Node 20 cannot strip types.
import { register } from 'tsx/esm/api';

register();

const { runRecorderProcess } = await import('../src/process-main.ts');
await runRecorderProcess(JSON.parse(process.env.REHEARSE_RECORDER_CONFIG ?? '{}'));
