import { SocketPaths, type ClientToServerEvents, type ServerToClientEvents } from '@rehearse/contract';
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
