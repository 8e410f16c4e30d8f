import {
  JoinProjectRequest,
  Messages,
  projectRoom,
  SocketPaths,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { AccessService } from '../auth/access.service.js';
import type { Caller } from '../auth/caller.js';
import type { SessionService } from '../auth/session.service.js';
import { AppError } from '../http/errors.js';

interface SocketData {
  caller: Caller;
}

type RehearseServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface SocketHub {
  /** Sends an event to every socket that joined the project's room, on both paths. */
  emitToProject<E extends keyof ServerToClientEvents>(
    projectId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
}

function handshakeToken(auth: Record<string, unknown>, query: Record<string, unknown>): string | undefined {
  const candidates = [auth.token, auth.key, query.token, query.key];
  const found = candidates.find((value) => typeof value === 'string' && value.length > 0);
  return found as string | undefined;
}

/**
 * Mounts socket.io on both paths the spec uses. Connections authenticate like HTTP calls; a
 * socket joins a project's room only after the same membership check a project call gets.
 */
export function attachSockets(app: FastifyInstance, sessions: SessionService, access: AccessService): SocketHub {
  const servers: RehearseServer[] = SocketPaths.map((path) => {
    // destroyUpgrade off: each server must leave upgrades on the other path alone.
    const io: RehearseServer = new Server(app.server, { path, destroyUpgrade: false, serveClient: false });
    io.use((socket, next) => {
      const token = handshakeToken(socket.handshake.auth, socket.handshake.query);
      sessions
        .authenticate(token)
        .then((caller) => {
          socket.data.caller = caller;
          next();
        })
        .catch((error: unknown) => next(new Error(error instanceof AppError ? error.message : Messages.unauthenticated)));
    });
    io.on('connection', (socket) => {
      socket.on('joinProject', (request, ack) => {
        const reply = typeof ack === 'function' ? ack : () => undefined;
        const parsed = JoinProjectRequest.safeParse(request);
        if (!parsed.success) return reply({ status: false, error: Messages.projectIdInvalid });
        access
          .authorize(socket.data.caller, { from: 'body', field: 'projectId' }, parsed.data.projectId)
          .then(async () => {
            await socket.join(projectRoom(parsed.data.projectId));
            reply({ status: true });
          })
          .catch((error: unknown) =>
            reply({ status: false, error: error instanceof AppError ? error.message : Messages.internal }),
          );
      });
      socket.on('leaveProject', (request, ack) => {
        const parsed = JoinProjectRequest.safeParse(request);
        const done = () => (typeof ack === 'function' ? ack({ status: true }) : undefined);
        if (!parsed.success) return done();
        void Promise.resolve(socket.leave(projectRoom(parsed.data.projectId))).then(done);
      });
    });
    return io;
  });

  app.addHook('onClose', async () => {
    await Promise.all(servers.map((io) => io.close()));
  });

  return {
    emitToProject(projectId, event, ...args) {
      for (const io of servers) io.to(projectRoom(projectId)).emit(event, ...args);
    },
  };
}
