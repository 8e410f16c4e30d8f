import {
  JoinProjectRequest,
  Messages,
  projectRoom,
  SocketPaths,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@rehearse/contract';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Server } from 'socket.io';
import type { AccessService } from '../auth/access.service.js';
import type { Caller } from '../http/caller.js';
import type { SessionService } from '../auth/session.service.js';
import { AppError } from '../http/errors.js';

interface SocketData {
  caller: Caller;
}

/** Between servers: an execution changed ({@link SocketHub.announceExecutionChange}). */
interface ServerSideEvents {
  executionChanged: (change: ExecutionChange) => void;
}

type RehearseServer = Server<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;

export interface SocketHub {
  /** Sends an event to every socket that joined the project's room, on both paths. */
  emitToProject<E extends keyof ServerToClientEvents>(projectId: string, event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  /** Sends an event to one named room (an execution status or list room), on both paths. */
  emitToRoom<E extends keyof ServerToClientEvents>(room: string, event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  /** Sends an event to one named room's sockets connected to this server only, on both paths. */
  emitToRoomHere<E extends keyof ServerToClientEvents>(room: string, event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  /**
   * Tells every other server that an execution changed: each then reads its counters and sends
   * them to its own sockets ({@link onExecutionChange}), as this one does. Counters read on one
   * server and relayed through PostgreSQL could reach a user after fresher ones read where the
   * user is connected (live counters going back: 9, 10, 9); read where they are sent, in turn,
   * they only ever go forward.
   */
  announceExecutionChange(change: ExecutionChange): void;
  /** Who hears another server's {@link announceExecutionChange} here (one handler: the execution engine). */
  onExecutionChange(handler: (change: ExecutionChange) => void): void;
  /** Clients connected to this server, on both paths (for /metrics). */
  clientCount(): number;
  /** Disconnects every socket a session opened (it logged out), on every server. */
  endSession(tokenHash: string): void;
  /** Disconnects every socket an access key opened (it was revoked), on every server. */
  endAccessKey(accessKeyId: string): void;
  /** Takes a person's sockets out of a project's rooms (they were removed from it), on every server. */
  leaveProject(userId: string, projectId: string): void;
}

/** An execution whose counters (and, with `list`, the project's execution list) are to be sent again. */
export interface ExecutionChange {
  projectId: string;
  executionId: string;
  list: boolean;
}

/** Rooms every socket joins on connecting, so it can be found by who opened it. */
const callerRooms = {
  user: (userId: string) => `user:${userId}`,
  session: (tokenHash: string) => `session:${tokenHash}`,
  accessKey: (accessKeyId: string) => `access-key:${accessKeyId}`,
};

/** Rooms of the executions page: live counters and the full list (DESIGN §11). */
const EXECUTION_ROOMS = {
  subscribeToExecutionStatus: (projectId: string) => `execution-status:${projectId}`,
  subscribeToExecutionCrud: (projectId: string) => `execution-crud:${projectId}`,
} as const;

function handshakeToken(auth: Record<string, unknown>, query: Record<string, unknown>): string | undefined {
  const candidates = [auth.token, auth.key, query.token, query.key];
  const found = candidates.find((value) => typeof value === 'string' && value.length > 0);
  return found as string | undefined;
}

/**
 * Mounts socket.io on both paths the spec uses. Connections authenticate like HTTP calls; a
 * socket joins a project's room only after the same membership check a project call gets.
 */
export function attachSockets(
  app: FastifyInstance,
  sessions: SessionService,
  access: AccessService,
  cluster?: { pool: pg.Pool; schemaName: string },
): SocketHub {
  const servers: RehearseServer[] = SocketPaths.map((path) => {
    // destroyUpgrade off: each server must leave upgrades on the other path alone.
    const io: RehearseServer = new Server(app.server, { path, destroyUpgrade: false, serveClient: false });
    // On PostgreSQL every API process shares broadcasts through LISTEN/NOTIFY (DESIGN §6); the
    // channel is named after the schema so installs (or tests) sharing a database stay apart.
    if (cluster) {
      io.adapter(
        createAdapter(cluster.pool, {
          channelPrefix: `rehearse:${cluster.schemaName}`,
          errorHandler: (error) => app.log.warn({ err: error }, 'socket.io postgres adapter error'),
        }),
      );
    }
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
      const caller = socket.data.caller;
      void socket.join([
        callerRooms.user(caller.user.id),
        caller.kind === 'session' ? callerRooms.session(caller.tokenHash) : callerRooms.accessKey(caller.accessKeyId),
      ]);
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
          .catch((error: unknown) => reply({ status: false, error: error instanceof AppError ? error.message : Messages.internal }));
      });
      // Executions rooms: the same membership check as joining the project's room.
      for (const [event, room] of Object.entries(EXECUTION_ROOMS) as [keyof typeof EXECUTION_ROOMS, (id: string) => string][]) {
        socket.on(event, (request, ack) => {
          const reply = typeof ack === 'function' ? ack : () => undefined;
          const parsed = JoinProjectRequest.safeParse(request);
          if (!parsed.success) return reply({ status: false, error: Messages.projectIdInvalid });
          access
            .authorize(socket.data.caller, { from: 'body', field: 'projectId' }, parsed.data.projectId)
            .then(async () => {
              await socket.join(room(parsed.data.projectId));
              reply({ status: true });
            })
            .catch((error: unknown) => reply({ status: false, error: error instanceof AppError ? error.message : Messages.internal }));
        });
      }
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

  // With the adapter, one emit reaches every server (the other path's too) through PostgreSQL;
  // emitting on both paths would deliver twice.
  const emitters = cluster ? servers.slice(0, 1) : servers;
  let executionChanged: (change: ExecutionChange) => void = () => undefined;
  // Announcements travel between the first path's servers only: each process hears one per change
  // (the other path's server would hear it too, through the same channel).
  servers[0]!.on('executionChanged', (change) => executionChanged(change));
  return {
    emitToProject(projectId, event, ...args) {
      for (const io of emitters) io.to(projectRoom(projectId)).emit(event, ...args);
    },
    emitToRoom(room, event, ...args) {
      for (const io of emitters) io.to(room).emit(event, ...args);
    },
    emitToRoomHere(room, event, ...args) {
      for (const io of servers) io.local.to(room).emit(event, ...args);
    },
    announceExecutionChange(change) {
      if (cluster) servers[0]!.serverSideEmit('executionChanged', change);
    },
    onExecutionChange(handler) {
      executionChanged = handler;
    },
    clientCount() {
      return servers.reduce((sum, io) => sum + io.engine.clientsCount, 0);
    },
    endSession(tokenHash) {
      for (const io of emitters) io.in(callerRooms.session(tokenHash)).disconnectSockets(true);
    },
    endAccessKey(accessKeyId) {
      for (const io of emitters) io.in(callerRooms.accessKey(accessKeyId)).disconnectSockets(true);
    },
    leaveProject(userId, projectId) {
      const rooms = [projectRoom(projectId), ...Object.values(EXECUTION_ROOMS).map((room) => room(projectId))];
      for (const io of emitters) io.in(callerRooms.user(userId)).socketsLeave(rooms);
    },
  };
}
