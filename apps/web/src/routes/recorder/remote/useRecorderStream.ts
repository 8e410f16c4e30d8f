import {
  RECORDER_SOCKET_PATH,
  RecorderServerEventSchemas as Events,
  RecordingCheck,
  type RecordedCommand,
  type RecorderAssertion,
  type RecorderFrameEvent,
  type RecorderInput,
} from '@rehearse/contract';
import { useCallback, useEffect, useEffectEvent, useRef, useState, type RefObject } from 'react';
import { io, type Socket } from 'socket.io-client';
import { session as authSession } from '../../../lib/session';
import { checked } from '../../../lib/socket';
import { recorderStats as stats } from './recorder-stats';

type Frame = RecorderFrameEvent;

/** What the stream tells the session about: attached, lost, ended by the server, a new expiry. */
export interface StreamEvents {
  onAttached: () => void;
  onRefused: () => void;
  onDisconnected: () => void;
  onEnded: (message: string) => void;
  onExpiry: (expiresAt: string) => void;
}

/**
 * The session's stream: one socket per connection, frames drawn on the canvas as they come, the
 * recorded steps and the server's warning; sends inputs, assertions and undo back.
 */
export function useRecorderStream(connectionId: string | undefined, canvasRef: RefObject<HTMLCanvasElement | null>, events: StreamEvents) {
  const [commands, setCommands] = useState<RecordedCommand[]>([]);
  const [warning, setWarning] = useState<string | null>(null);
  const [assertHint, setAssertHint] = useState(false);
  /** The self-check of the session's last Publish, as the server last told it. */
  const [check, setCheck] = useState<RecordingCheck | null>(null);
  const socketRef = useRef<Socket | null>(null);
  const inputId = useRef(1);
  // The session's handlers of the moment, without reconnecting when they change.
  const handlers = useEffectEvent(() => events);

  useEffect(() => {
    if (!connectionId) return;
    const socket = io({ path: RECORDER_SOCKET_PATH, transports: ['websocket'], auth: { token: authSession.getToken() } });
    socketRef.current = socket;
    // Only the newest frame is worth decoding: while one decodes, a newer arrival replaces the
    // waiting one (keeping the inputs it answered), so a slow client shows the present, not a backlog.
    let decoding = false;
    let waiting: { frame: Frame; inputs: number[] } | null = null;
    const draw = async (frame: Frame, inputs: number[]) => {
      const bitmap = await createImageBitmap(
        new Blob([frame.data instanceof ArrayBuffer ? frame.data : new Uint8Array(frame.data)], { type: 'image/jpeg' }),
      );
      const canvas = canvasRef.current;
      if (canvas) {
        if (canvas.width !== frame.width || canvas.height !== frame.height) {
          canvas.width = frame.width;
          canvas.height = frame.height;
        }
        canvas.getContext('2d')?.drawImage(bitmap, 0, 0, frame.width, frame.height);
        stats.frames++;
        const drawnAt = performance.now();
        for (const id of inputs) {
          const sentAt = stats.sent.get(id);
          if (sentAt !== undefined) stats.latencies.push(drawnAt - sentAt);
          stats.sent.delete(id);
        }
      }
      bitmap.close();
    };
    const pump = async () => {
      decoding = true;
      while (waiting) {
        const next = waiting;
        waiting = null;
        await draw(next.frame, next.inputs).catch(() => undefined);
      }
      decoding = false;
    };
    socket.on('connect', () => {
      socket.emit('attach', { connectionId }, (answer: { status: boolean; error?: string }) =>
        answer.status ? handlers().onAttached() : handlers().onRefused(),
      );
    });
    socket.on('disconnect', () => handlers().onDisconnected());
    // Every event is checked against the contract's schema on receipt: a malformed one is dropped.
    socket.on(
      'frame',
      checked(Events.frame, (frame) => {
        stats.received++;
        const sentAt = frame.input === undefined ? undefined : stats.sent.get(frame.input);
        if (sentAt !== undefined) stats.arrivals.push(performance.now() - sentAt);
        const inputs = [...(waiting?.inputs ?? []), ...(frame.input === undefined ? [] : [frame.input])];
        waiting = { frame, inputs };
        if (!decoding) void pump();
      }),
    );
    socket.on(
      'steps',
      checked(Events.steps, (payload) => {
        setCommands(payload.commands);
        setAssertHint(false);
      }),
    );
    socket.on(
      'state',
      checked(Events.state, (payload) => handlers().onExpiry(payload.expiresAt)),
    );
    socket.on('check', checked(RecordingCheck, setCheck));
    socket.on(
      'warning',
      checked(Events.warning, (payload) => setWarning(payload.message)),
    );
    socket.on(
      'ended',
      checked(Events.ended, (payload) => {
        handlers().onEnded(payload.message);
        socket.close();
      }),
    );
    return () => {
      socket.close();
      socketRef.current = null;
    };
  }, [connectionId, canvasRef]);

  const send = useCallback((input: RecorderInput) => {
    const socket = socketRef.current;
    if (!socket?.connected) return;
    if (input.kind !== 'viewport' && input.kind !== 'navigate') {
      const id = inputId.current++;
      // A key's release shows nothing new, so no frame answers it: timing it would only measure
      // the wait for some later frame (a caret blink), not latency.
      if (input.kind !== 'key' || input.type === 'down') stats.sent.set(id, performance.now());
      socket.emit('input', { ...input, id });
    } else socket.emit('input', input);
  }, []);

  // URL and Not visible are recorded at once; the others take the next click on the page.
  const assert = (type: RecorderAssertion, text?: string) => {
    socketRef.current?.emit('assert', { type, ...(text ? { text } : {}) }, () => undefined);
    setAssertHint(type !== 'verifyUrl' && type !== 'verifyNoText');
    canvasRef.current?.focus();
  };

  const undo = () => socketRef.current?.emit('undo', () => undefined);

  return { commands, warning, assertHint, check, send, assert, undo };
}
