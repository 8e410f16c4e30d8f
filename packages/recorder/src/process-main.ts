import type { FromRecorder, RecorderProcessConfig, ToRecorder } from '@rehearse/codegen';
import { NavigationRefused, RecorderSession } from './session.js';

/**
 * The cloud recorder process: one per session, started by the API server with an IPC channel.
 * It owns the session's Chromium; when the server goes away (disconnect) it closes the browser
 * and exits, so no browser outlives its session.
 */
export async function runRecorderProcess(config: RecorderProcessConfig): Promise<void> {
  const send = (message: FromRecorder) => {
    if (process.connected) process.send?.(message);
  };
  let session: RecorderSession | undefined;
  let closing = false;
  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    await session?.close();
    process.exit(code);
  };
  process.on('disconnect', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  // One message at a time, in the order sent. Keys go through Playwright's keyboard and mouse
  // events straight to CDP, two channels: unqueued, a click could reach the page before the keys
  // typed ahead of it (a half-typed date, then a layout that moved under the click), and a click
  // right after Add assertion before the page knew it was to be an assertion.
  let inOrder: Promise<void> = Promise.resolve();
  process.on('message', (message: ToRecorder) => {
    const current = session;
    if (!current) return;
    if (message.type === 'close') {
      void shutdown(0);
      return;
    }
    inOrder = inOrder.then(async () => {
      switch (message.type) {
        case 'input':
          await current.input(message.input).catch(() => undefined);
          break;
        case 'assert':
          await current.assert(message.mode, message.text);
          break;
        case 'undo':
          current.undo();
          break;
      }
    });
  });
  try {
    session = await RecorderSession.start({
      ...config,
      headless: true,
      screencast: true,
      onFrame: (frame) => send({ type: 'frame', ...frame }),
      onCommands: (commands) => send({ type: 'commands', commands }),
      onPage: (page) => send({ type: 'page', page }),
    });
    send({ type: 'commands', commands: [...session.commands] });
    send({ type: 'ready' });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error), refused: error instanceof NavigationRefused });
    await shutdown(1);
  }
}
