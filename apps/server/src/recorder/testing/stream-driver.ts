import { RECORDER_SOCKET_PATH, type RecordedCommand, type RecorderInput, type RecordingCheck } from '@rehearse/contract';
import { io, type Socket } from 'socket.io-client';

/** How often a focused field's caret repaints the page (Chromium blinks it every 500 ms). */
const CARET_BLINK_MS = 500;

/**
 * A client of the recorder socket as the remote-recorder page is one: it attaches to a session,
 * keeps the frames and steps it is sent, and sends mouse and keyboard input to the stream.
 */
export class StreamDriver {
  frames = 0;
  lastFrameAt = 0;
  commands: RecordedCommand[] = [];
  ended: string | undefined;
  warnings: string[] = [];
  /** The self-check events, in the order they came. */
  checks: RecordingCheck[] = [];
  private nextInput = 1;

  private constructor(readonly socket: Socket) {
    socket.on('frame', () => {
      this.frames++;
      this.lastFrameAt = Date.now();
    });
    socket.on('steps', (payload: { commands: RecordedCommand[] }) => (this.commands = payload.commands));
    socket.on('ended', (payload: { message: string }) => (this.ended = payload.message));
    socket.on('warning', (payload: { message: string }) => this.warnings.push(payload.message));
    socket.on('check', (payload: RecordingCheck) => this.checks.push(payload));
  }

  static async connect(serverUrl: string, token: string, connectionId: string): Promise<StreamDriver> {
    const socket = io(serverUrl, { path: RECORDER_SOCKET_PATH, transports: ['websocket'], auth: { token }, reconnection: false });
    const driver = new StreamDriver(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const answer = (await socket.emitWithAck('attach', { connectionId })) as { status: boolean; error?: string };
    if (!answer.status) {
      socket.close();
      throw new Error(answer.error);
    }
    return driver;
  }

  send(input: RecorderInput): void {
    this.socket.emit(
      'input',
      'kind' in input && input.kind !== 'viewport' && input.kind !== 'navigate' ? { ...input, id: this.nextInput++ } : input,
    );
  }

  click(x: number, y: number): void {
    this.send({ kind: 'mouse', type: 'move', x, y });
    this.send({ kind: 'mouse', type: 'down', x, y, button: 'left' });
    this.send({ kind: 'mouse', type: 'up', x, y, button: 'left' });
  }

  type(text: string): void {
    for (const key of text) {
      this.send({ kind: 'key', type: 'down', key });
      this.send({ kind: 'key', type: 'up', key });
    }
  }

  press(key: string): void {
    this.send({ kind: 'key', type: 'down', key });
    this.send({ kind: 'key', type: 'up', key });
  }

  /** Resolves once `predicate` holds for the recorded steps. */
  async stepsUntil(predicate: (commands: RecordedCommand[]) => boolean, timeoutMs = 15_000): Promise<RecordedCommand[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.commands)) {
      if (Date.now() > deadline)
        throw new Error(`steps never matched; have ${this.commands.map((c) => `${c.type} ${c.element?.name ?? c.value}`).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.commands;
  }

  /** The outcome of the self-check of the publish that made `commit`, once it has one. */
  async checked(commit: string, timeoutMs = 120_000): Promise<RecordingCheck> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const done = this.checks.find((check) => check.commit === commit && check.state !== 'checking');
      if (done) return done;
      if (Date.now() > deadline) throw new Error(`no self-check outcome for ${commit}; have ${JSON.stringify(this.checks)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Waits until no frame came for `quietMs`: the streamed page stopped changing. 800 ms, not less:
   * on a loaded machine the recorder's screencast stalled 400 ms while its page was still loading,
   * and the next mirrored click landed on "Loading products…". A focused field's blinking caret
   * repaints the page once per 500 ms for as long as it has focus, so two windows of `quietMs` in
   * a row with no more frames than such a caret sends count as settled too (such waits used to
   * run to the timeout).
   */
  async settled(quietMs = 800, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    let window = { from: Date.now(), frames: this.frames };
    let calmWindows = 0;
    while (Date.now() - this.lastFrameAt < quietMs && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (Date.now() - window.from < quietMs) continue;
      calmWindows = this.frames - window.frames <= Math.ceil(quietMs / CARET_BLINK_MS) ? calmWindows + 1 : 0;
      if (calmWindows >= 2) return;
      window = { from: Date.now(), frames: this.frames };
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** Pids of every process whose environment names this recorder session (its Node process and its Chromium). */
export async function processesOfSession(marker: string): Promise<number[]> {
  const { readdirSync, readFileSync } = await import('node:fs');
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      // Zombies are gone for every purpose but the process table.
      if (/\) Z /.test(stat)) continue;
      if (environ.includes(`REHEARSE_RECORDER_SESSION=${marker}`)) found.push(Number(entry));
    } catch {
      // Exited meanwhile, or not ours to read.
    }
  }
  return found;
}
