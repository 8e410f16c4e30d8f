import { EGRESS_PROXY_ENV } from '@rehearse/egress';
import { startNodeProgram, stopChild } from '@rehearse/processes';
import type { FromRecorder, RecorderProcessConfig, ToRecorder } from '@rehearse/codegen';

import { RECORDER_BIN } from '../processes/programs.js';

export interface RecorderProcess {
  readonly pid: number | undefined;
  send(message: ToRecorder): void;
  /** Asks the process to close its browser; kills its whole process group if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The one door to recorder processes (DESIGN §7): each cloud session runs in its own process with
 * its own Chromium, so the API process never holds a browser. The process gets its configuration
 * through the environment and talks over an IPC channel (advanced serialization: frames are bytes).
 * `marker` is put in the environment of the process and so of its browser, so tests can find
 * every process a session started.
 */
export function startRecorderProcess(
  config: RecorderProcessConfig,
  marker: string,
  /** The egress proxy its browser must use for every request. */
  egressProxyUrl: string,
  handlers: { onMessage: (message: FromRecorder) => void; onExit: (code: number | null, stderr: string) => void },
): RecorderProcess {
  const child = startNodeProgram(RECORDER_BIN, [], {
    env: {
      ...process.env,
      REHEARSE_RECORDER_CONFIG: JSON.stringify(config),
      REHEARSE_RECORDER_SESSION: marker,
      [EGRESS_PROXY_ENV]: egressProxyUrl,
    },
    detached: true,
    serialization: 'advanced',
    stdout: 'ignore',
    stderr: 'pipe',
    keepNodeFlags: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString('utf8');
  });
  child.on('message', (message: FromRecorder) => handlers.onMessage(message));
  child.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code) => {
      handlers.onExit(code, stderr.slice(-2000));
      resolve();
    });
  });
  return {
    pid: child.pid,
    send(message) {
      if (child.connected) child.send(message);
    },
    async stop(graceMs = 5000) {
      const ask = () => {
        if (child.connected) child.send({ type: 'close' } satisfies ToRecorder);
      };
      await stopChild(child, { ask, graceMs, group: true });
      await exited;
    },
  };
}
