import {
  Messages,
  RECORDER_SOCKET_PATH,
  RecorderAssertRequest,
  RecorderAttachRequest,
  RecorderInput,
  type RecorderCheckEvents,
  type RecorderClientEvents,
  type RecorderServerEvents,
} from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { Caller } from '../http/caller.js';
import type { SessionService } from '../auth/session.service.js';
import { AppError } from '../http/errors.js';
import type { RecorderService, SessionEvents } from './recorder.service.js';

interface SocketData {
  caller: Caller;
  sessionId?: string;
}

const room = (id: string) => `recorder:${id}`;

/**
 * The recorder's socket.io server (`RECORDER_SOCKET_PATH`): frames out, input in. A socket
 * authenticates like an HTTP call and then attaches to one session, which must be its user's own.
 */
export function attachRecorderSockets(app: FastifyInstance, sessions: SessionService, recorder: RecorderService): void {
  const io = new Server<RecorderClientEvents, RecorderServerEvents & RecorderCheckEvents, Record<string, never>, SocketData>(app.server, {
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
        const attach = RecorderAttachRequest.safeParse(request);
        const session = recorder.owned(socket.data.caller, attach.success ? attach.data.connectionId : '');
        socket.data.sessionId = session.id;
        void socket.join(room(session.id));
        const snapshot = recorder.snapshot(session);
        reply({ status: true });
        socket.emit('state', { state: snapshot.state, expiresAt: snapshot.expiresAt });
        socket.emit('steps', { commands: snapshot.commands });
        if (snapshot.lastFrame) socket.emit('frame', snapshot.lastFrame);
        if (snapshot.check) socket.emit('check', snapshot.check);
      } catch (error) {
        reply({ status: false, error: error instanceof AppError ? error.message : Messages.internal });
      }
    });
    // Only well-formed input within bounds reaches a browser; anything else from a client is dropped.
    socket.on('input', (input) => {
      const session = current();
      const parsed = RecorderInput.safeParse(input);
      if (session && parsed.success) recorder.input(session, parsed.data);
    });
    socket.on('assert', (request, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      const session = current();
      const assertion = RecorderAssertRequest.safeParse(request);
      if (!session || !assertion.success) return reply({ status: false, error: Messages.recorderSessionNotFound });
      recorder.assert(session, assertion.data.type, assertion.data.text?.slice(0, 2000));
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
    check: (id, check) => io.to(room(id)).emit('check', check),
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
