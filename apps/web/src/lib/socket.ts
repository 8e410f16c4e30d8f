import { ProjectServerEventSchemas, SocketPaths, type ClientToServerEvents, type ServerToClientEvents } from '@rehearse/contract';
import { io, type Socket } from 'socket.io-client';
import { session } from './session';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let shared: AppSocket | null = null;

/**
 * The app's one socket.io connection (spec 02 §7: /ws), opened on first use with the session
 * token. Screens subscribe to what they need and remove their own listeners when they unmount.
 */
export function appSocket(): AppSocket {
  if (!shared) {
    shared = io(window.location.origin, {
      path: SocketPaths[0],
      auth: (cb) => cb({ token: session.getToken() ?? '' }),
      query: { fromClient: 'true' },
      transports: ['websocket'],
    });
  }
  return shared;
}

/** What `checked` needs of a contract schema. */
interface PayloadSchema<T> {
  safeParse(payload: unknown): { success: true; data: T } | { success: false };
}

/**
 * A socket listener that receives only payloads the contract's schema accepts: a malformed event
 * (a server of another version, a bug) is dropped instead of being rendered.
 */
export function checked<T>(schema: PayloadSchema<T>, listener: (payload: T) => void): (payload: unknown) => void {
  return (payload) => {
    const parsed = schema.safeParse(payload);
    if (parsed.success) listener(parsed.data);
  };
}

type ProjectEvent = keyof typeof ProjectServerEventSchemas;
type ProjectEventPayload<E extends ProjectEvent> = ReturnType<(typeof ProjectServerEventSchemas)[E]['parse']>;

/**
 * Hears one event of a project's room: joins the room (again after every reconnect) and passes on
 * the payloads its contract schema accepts. Answers the cleanup, which removes only its own
 * listeners: the room is left by whoever joined it for the screen (the project layout).
 */
export function listenInProjectRoom<E extends ProjectEvent>(
  projectId: string,
  event: E,
  listener: (payload: ProjectEventPayload<E>) => void,
): () => void {
  const socket = appSocket();
  const join = () => socket.emit('joinProject', { projectId }, () => undefined);
  const onEvent = checked(ProjectServerEventSchemas[event] as PayloadSchema<ProjectEventPayload<E>>, listener);
  // socket.io's typed `on` cannot take a name chosen by a type parameter.
  const untyped = socket as unknown as {
    on(name: string, listener: (payload: unknown) => void): void;
    off(name: string, listener: (payload: unknown) => void): void;
  };
  socket.on('connect', join);
  untyped.on(event, onEvent);
  if (socket.connected) join();
  return () => {
    socket.off('connect', join);
    untyped.off(event, onEvent);
  };
}
