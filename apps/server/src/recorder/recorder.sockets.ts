import {
  Messages,
  RECORDER_SOCKET_PATH,
  RecorderAssertion,
  type RecorderClientEvents,
  type RecorderInput,
  type RecorderServerEvents,
} from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { Caller } from '../auth/caller.js';
import type { SessionService } from '../auth/session.service.js';
import { AppError } from '../http/errors.js';
import type { RecorderService, SessionEvents } from './recorder.service.js';

interface SocketData {
  caller: Caller;
  sessionId?: string;
}

const room = (id: string) => `recorder:${id}`;

const INPUT_KINDS = new Set(['mouse', 'wheel', 'key', 'paste', 'viewport', 'navigate']);

/** Only well-formed input within bounds reaches a browser; anything else from a client is dropped. */
export function validInput(input: unknown): input is RecorderInput {
  if (!input || typeof input !== 'object') return false;
  const value = input as Record<string, unknown>;
  if (typeof value.kind !== 'string' || !INPUT_KINDS.has(value.kind)) return false;
  const finite = (key: string) => typeof value[key] === 'number' && Number.isFinite(value[key]) && Math.abs(value[key]) < 100_000;
  switch (value.kind) {
    case 'mouse':
      return (
        finite('x') &&
        finite('y') &&
        ['move', 'down', 'up'].includes(value.type as string) &&
        (value.clickCount === undefined ||
          (Number.isInteger(value.clickCount) && (value.clickCount as number) >= 1 && (value.clickCount as number) <= 3))
      );
    case 'wheel':
      return finite('x') && finite('y') && finite('deltaX') && finite('deltaY');
    case 'key':
      return typeof value.key === 'string' && value.key.length <= 32 && ['down', 'up'].includes(value.type as string);
    case 'paste':
      return typeof value.text === 'string' && value.text.length <= 100_000;
    case 'viewport':
      return (
        finite('width') &&
        finite('height') &&
        (value.width as number) >= 320 &&
        (value.height as number) >= 240 &&
        (value.width as number) <= 3840 &&
        (value.height as number) <= 2160
      );
    case 'navigate':
      return typeof value.url === 'string' && value.url.length <= 4000;
    default:
      return false;
  }
}

/**
 * The recorder's socket.io server (`RECORDER_SOCKET_PATH`): frames out, input in. A socket
 * authenticates like an HTTP call and then attaches to one session, which must be its user's own.
 */
export function attachRecorderSockets(app: FastifyInstance, sessions: SessionService, recorder: RecorderService): void {
  const io = new Server<RecorderClientEvents, RecorderServerEvents, Record<string, never>, SocketData>(app.server, {
    path: RECORDER_SOCKET_PATH,
    destroyUpgrade: false,
    serveClient: false,
    transports: ['websocket'],
    maxHttpBufferSize: 1_000_000,
  });
  io.use((socket, next) => {
    const auth = socket.handshake.auth as Record<string, unknown>;
    const token = typeof auth.token === 'string' ? auth.token : undefined;
    sessions
      .authenticate(token)
      .then((caller) => {
        socket.data.caller = caller;
        next();
      })
      .catch((error: unknown) => next(new Error(error instanceof AppError ? error.message : Messages.unauthenticated)));
  });
  io.on('connection', (socket) => {
    const current = () => {
      const id = socket.data.sessionId;
      if (!id) return undefined;
      try {
        return recorder.owned(socket.data.caller, id);
      } catch {
        return undefined;
      }
    };
    socket.on('attach', (request, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      try {
        const id = (request as { connectionId?: unknown } | undefined)?.connectionId;
        const session = recorder.owned(socket.data.caller, typeof id === 'string' ? id : '');
        socket.data.sessionId = session.id;
        void socket.join(room(session.id));
        const snapshot = recorder.snapshot(session);
        reply({ status: true });
        socket.emit('state', { state: snapshot.state, expiresAt: snapshot.expiresAt });
        socket.emit('steps', { commands: snapshot.commands });
        if (snapshot.lastFrame) socket.emit('frame', snapshot.lastFrame);
      } catch (error) {
        reply({ status: false, error: error instanceof AppError ? error.message : Messages.internal });
      }
    });
    socket.on('input', (input) => {
      const session = current();
      if (session && validInput(input)) recorder.input(session, input);
    });
    socket.on('assert', (request, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      const session = current();
      const type = RecorderAssertion.safeParse((request as { type?: unknown } | undefined)?.type);
      if (!session || !type.success) return reply({ status: false, error: Messages.recorderSessionNotFound });
      const text = (request as { text?: unknown }).text;
      recorder.assert(session, type.data, typeof text === 'string' ? text.slice(0, 2000) : undefined);
      reply({ status: true });
    });
    socket.on('undo', (ack) => {
      const session = current();
      if (session) recorder.undo(session);
      if (typeof ack === 'function') ack({ status: Boolean(session) });
    });
  });

  const events: SessionEvents = {
    frame: (id, frame) => io.to(room(id)).emit('frame', frame),
    steps: (id, commands) => io.to(room(id)).emit('steps', { commands }),
    state: (id, state, expiresAt, message) => io.to(room(id)).emit('state', { state, expiresAt, ...(message ? { message } : {}) }),
    warning: (id, message, secondsLeft) => io.to(room(id)).emit('warning', { message, secondsLeft }),
    ended: (id, message) => {
      io.to(room(id)).emit('ended', { message });
      io.in(room(id)).socketsLeave(room(id));
    },
  };
  recorder.events = events;
  app.addHook('onClose', async () => {
    await recorder.close();
    await io.close();
  });
}
