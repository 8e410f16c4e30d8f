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
