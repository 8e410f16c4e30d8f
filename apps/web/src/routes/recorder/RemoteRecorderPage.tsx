import {
  Messages,
  describeRecordedStep,
  RECORDER_SOCKET_PATH,
  recorderCalls,
  workspaceCalls,
  type RecordedCommand,
  type RecorderAssertion,
  type RecorderInput,
  type RecorderSessionInfo,
} from '@rehearse/contract';
import { CheckCircle2, Circle, Eye, Loader2, Send, Undo2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { io, type Socket } from 'socket.io-client';
import { Button } from '../../components/Button';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { api, errorMessage } from '../../lib/api';
import { session as authSession } from '../../lib/session';
import { Strings } from '../../lib/strings';

type Phase = 'creating' | 'preparing' | 'connected' | 'reconnecting' | 'published' | 'ended' | 'error';

interface Problem {
  title: string;
  text: string;
}

/** The spec's two-part error screens (spec 02 §8), from the server's message. */
function problemOf(message: string): Problem {
  if (message === Messages.recorderMaxSessions) return { title: Messages.recorderMaxSessionsTitle, text: message };
  if (message === Messages.recorderUnreachable) return { title: Messages.recorderUnreachableTitle, text: message };
  if (message === Messages.recorderOverloaded) return { title: Messages.recorderSessionLoadTitle, text: message };
  return { title: Messages.recorderSessionLoadTitle, text: Messages.recorderSessionLoadError };
}

function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/**
 * Measures input-to-frame latency in the page (the bench reads it): `latencies` from the input
 * sent to its frame drawn, `arrivals` from the input sent to its frame received (before decoding).
 */
const stats = { sent: new Map<number, number>(), latencies: [] as number[], arrivals: [] as number[], frames: 0, received: 0 };
(window as unknown as { __rehearseRecorderStats?: typeof stats }).__rehearseRecorderStats = stats;

/**
 * `/remote-recorder/{cmd}?project_id=` (spec 02 §2, §4): a cloud recorder session streamed into a
 * canvas, with the recorded steps, assertions, undo and publish beside it. A reload re-attaches to
 * the user's live session.
 */
export function RemoteRecorderPage() {
  useDocumentTitle(Strings.recordingInCloud);
  const [search] = useSearchParams();
  const projectId = search.get('project_id') ?? '';
  const [phase, setPhase] = useState<Phase>('creating');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [info, setInfo] = useState<RecorderSessionInfo | null>(null);
  const [commands, setCommands] = useState<RecordedCommand[]>([]);
  const [now, setNow] = useState(() => Date.now());
  const [warning, setWarning] = useState<string | null>(null);
  const [endedMessage, setEndedMessage] = useState<string | null>(null);
  const [assertHint, setAssertHint] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const socketRef = useRef<Socket | null>(null);
  const inputId = useRef(1);

  const start = useCallback(async () => {
    setProblem(null);
    setPhase('creating');
    try {
      const active = await api.call(recorderCalls.activeSession, { query: { projectId } });
      let live = active.session;
      if (!live) {
        const { allEnv, lastActiveEnv } = await api.call(workspaceCalls.getEnvList, { body: { projectId } });
        const env = search.get('env_name') ?? lastActiveEnv ?? allEnv[0]?.name;
        if (!env) throw new Error(Messages.environmentNotFound);
        setPhase('preparing');
        const area = canvasRef.current?.parentElement?.getBoundingClientRect();
        const viewport = area
          ? { width: Math.max(800, Math.min(1600, Math.round(area.width))), height: Math.max(600, Math.min(1200, Math.round(area.height))) }
          : undefined;
        live = (await api.call(recorderCalls.createConnection, { body: { projectId, env, ...(viewport ? { viewport } : {}) } })).session;
      }
      setInfo(live);
    } catch (error) {
      setProblem(problemOf(errorMessage(error)));
      setPhase('error');
    }
  }, [projectId, search]);

  useEffect(() => {
    void start();
  }, [start]);

  const connectionId = info?.connectionId;
  // The stream: one socket per session, frames drawn as they come.
  useEffect(() => {
    if (!connectionId) return;
    const socket = io({ path: RECORDER_SOCKET_PATH, transports: ['websocket'], auth: { token: authSession.getToken() } });
    socketRef.current = socket;
    // Only the newest frame is worth decoding: while one decodes, a newer arrival replaces the
    // waiting one (keeping the inputs it answered), so a slow client shows the present, not a backlog.
    type Frame = { data: ArrayBuffer; width: number; height: number; input?: number };
    let decoding = false;
    let waiting: { frame: Frame; inputs: number[] } | null = null;
    const draw = async (frame: Frame, inputs: number[]) => {
      const bitmap = await createImageBitmap(new Blob([frame.data], { type: 'image/jpeg' }));
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
      socket.emit('attach', { connectionId }, (answer: { status: boolean; error?: string }) => {
        if (answer.status) setPhase((p) => (p === 'published' ? p : 'connected'));
        else {
          setEndedMessage(Messages.recorderSessionEnded);
          setPhase('ended');
        }
      });
    });
    socket.on('disconnect', () => setPhase((p) => (p === 'ended' ? p : 'reconnecting')));
    socket.on('frame', (frame: Frame) => {
      stats.received++;
      const sentAt = frame.input === undefined ? undefined : stats.sent.get(frame.input);
      if (sentAt !== undefined) stats.arrivals.push(performance.now() - sentAt);
      const inputs = [...(waiting?.inputs ?? []), ...(frame.input === undefined ? [] : [frame.input])];
      waiting = { frame, inputs };
      if (!decoding) void pump();
    });
    socket.on('steps', (payload: { commands: RecordedCommand[] }) => {
      setCommands(payload.commands);
      setAssertHint(false);
    });
    socket.on('state', (payload: { state: string; expiresAt: string }) => {
      setInfo((current) => (current ? { ...current, expiresAt: payload.expiresAt } : current));
    });
    socket.on('warning', (payload: { message: string }) => setWarning(payload.message));
    socket.on('ended', (payload: { message: string }) => {
      setEndedMessage(payload.message);
      setPhase('ended');
      socket.close();
    });
    return () => {
      socket.close();
      socketRef.current = null;
    };
  }, [connectionId]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

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

  // Canvas input: coordinates scale from the displayed size to the remote page's CSS pixels.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const point = (event: MouseEvent) => {
      const rect = canvas.getBoundingClientRect();
      return {
        x: ((event.clientX - rect.left) / rect.width) * canvas.width,
        y: ((event.clientY - rect.top) / rect.height) * canvas.height,
      };
    };
    const button = (event: MouseEvent): 'left' | 'right' | 'middle' =>
      event.button === 2 ? 'right' : event.button === 1 ? 'middle' : 'left';
    // The press's place in a run of clicks (2 on a double-click's second press), so the remote page gets its dblclick.
    const clickCount = (event: MouseEvent) => Math.min(3, Math.max(1, event.detail || 1));
    // At most one move per animation frame (all the remote page can show), but the first move
    // goes at once: waiting for the next frame would add up to a frame of latency to every hover.
    let pendingMove: MouseEvent | null = null;
    let moveWindowOpen = false;
    const flushMove = () => {
      if (pendingMove) {
        send({ kind: 'mouse', type: 'move', ...point(pendingMove) });
        pendingMove = null;
        requestAnimationFrame(flushMove);
      } else moveWindowOpen = false;
    };
    const onMove = (event: MouseEvent) => {
      if (moveWindowOpen) {
        pendingMove = event;
        return;
      }
      send({ kind: 'mouse', type: 'move', ...point(event) });
      moveWindowOpen = true;
      requestAnimationFrame(flushMove);
    };
    const onDown = (event: MouseEvent) => {
      canvas.focus();
      event.preventDefault();
      send({ kind: 'mouse', type: 'down', ...point(event), button: button(event), clickCount: clickCount(event) });
    };
    const onUp = (event: MouseEvent) =>
      send({ kind: 'mouse', type: 'up', ...point(event), button: button(event), clickCount: clickCount(event) });
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      send({ kind: 'wheel', ...point(event), deltaX: event.deltaX, deltaY: event.deltaY });
    };
    const onKey = (event: KeyboardEvent) => {
      const pasting = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v';
      if (pasting) return; // the paste event brings the text
      event.preventDefault();
      send({ kind: 'key', type: event.type === 'keydown' ? 'down' : 'up', key: event.key });
    };
    const onPaste = (event: ClipboardEvent) => {
      if (document.activeElement !== canvas) return;
      const text = event.clipboardData?.getData('text/plain');
      if (text) send({ kind: 'paste', text });
      event.preventDefault();
    };
    const onContext = (event: Event) => event.preventDefault();
    canvas.addEventListener('mousemove', onMove);
    canvas.addEventListener('mousedown', onDown);
    canvas.addEventListener('mouseup', onUp);
    canvas.addEventListener('wheel', onWheel, { passive: false });
    canvas.addEventListener('keydown', onKey);
    canvas.addEventListener('keyup', onKey);
    canvas.addEventListener('contextmenu', onContext);
    document.addEventListener('paste', onPaste);
    return () => {
      canvas.removeEventListener('mousemove', onMove);
      canvas.removeEventListener('mousedown', onDown);
      canvas.removeEventListener('mouseup', onUp);
      canvas.removeEventListener('wheel', onWheel);
      canvas.removeEventListener('keydown', onKey);
      canvas.removeEventListener('keyup', onKey);
      canvas.removeEventListener('contextmenu', onContext);
      document.removeEventListener('paste', onPaste);
    };
  }, [send, phase]);

  const endSession = async () => {
    if (!info || !window.confirm(Messages.recorderEndConfirm)) return;
    await api.call(recorderCalls.deleteConnection, { body: { connectionName: info.connectionId } }).catch(() => undefined);
    setEndedMessage(Messages.recorderSessionEnded);
    setPhase('ended');
  };

  // URL and Not visible are recorded at once; the others take the next click on the page.
  const assert = (type: RecorderAssertion, text?: string) => {
    socketRef.current?.emit('assert', { type, ...(text ? { text } : {}) }, () => undefined);
    setAssertHint(type !== 'verifyUrl' && type !== 'verifyNoText');
    canvasRef.current?.focus();
  };

  const timeLeft = info ? new Date(info.expiresAt).getTime() - now : 0;
  const lastMinute = phase === 'connected' && timeLeft <= 60_000;
  const live = phase === 'connected' || phase === 'published' || phase === 'reconnecting';

  return (
    <div className="flex h-full flex-col bg-slate-100">
      <header className="flex h-14 shrink-0 items-center gap-4 border-b border-slate-200 bg-white px-5">
        <h1 className="text-base font-semibold text-slate-900">{Strings.recordingInCloud}</h1>
        <StateBadge phase={phase} />
        <span className="ml-auto text-sm tabular-nums text-slate-700" aria-label={Strings.recorderTimeLeft}>
          {info && live ? clock(timeLeft) : '--:--'}
        </span>
        <Button variant="danger" size="sm" onClick={() => void endSession()} disabled={!info || !live}>
          {Strings.recorderEndSession}
        </Button>
      </header>
      {(warning || lastMinute) && live && (
        <p role="alert" className="bg-amber-100 px-5 py-2 text-sm text-amber-900">
          {Messages.recorderExpiryWarning}
        </p>
      )}
      <main id="main" className="flex min-h-0 flex-1">
        <section className="relative flex min-w-0 flex-1 items-center justify-center p-4">
          <canvas
            ref={canvasRef}
            tabIndex={0}
            aria-label={Strings.recorderDisplayLabel}
            data-testid="remote-display"
            className={`max-h-full max-w-full rounded-md bg-white shadow-lg outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${live ? '' : 'invisible'}`}
            width={1280}
            height={800}
          />
          {!live && <Overlay phase={phase} problem={problem} endedMessage={endedMessage} onRetry={() => void start()} />}
        </section>
        <SidePanel
          projectId={projectId}
          info={info}
          commands={commands}
          enabled={live}
          assertHint={assertHint}
          onAssert={assert}
          onUndo={() => socketRef.current?.emit('undo', () => undefined)}
          onPublished={() => setPhase('published')}
        />
      </main>
    </div>
  );
}

function StateBadge({ phase }: { phase: Phase }) {
  const label = {
    creating: Strings.recorderStateCreating,
    preparing: Strings.recorderStatePreparing,
    connected: Strings.recorderStateConnected,
    reconnecting: Strings.recorderStateReconnecting,
    published: Strings.recorderStatePublished,
    ended: Strings.recorderStateEnded,
    error: Messages.recorderSessionLoadTitle,
  }[phase];
  const tone =
    phase === 'connected' || phase === 'published'
      ? 'bg-emerald-100 text-emerald-800'
      : phase === 'error' || phase === 'ended'
        ? 'bg-red-100 text-red-800'
        : 'bg-slate-100 text-slate-700';
  return (
    <span role="status" className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ${tone}`}>
      {(phase === 'creating' || phase === 'preparing' || phase === 'reconnecting') && (
        <Loader2 aria-hidden="true" className="size-3 animate-spin" />
      )}
      {label}
    </span>
  );
}

function Overlay({
  phase,
  problem,
  endedMessage,
  onRetry,
}: {
  phase: Phase;
  problem: Problem | null;
  endedMessage: string | null;
  onRetry: () => void;
}) {
  if (phase === 'error' && problem) {
    return (
      <div
        role="alertdialog"
        aria-labelledby="recorder-problem"
        className="absolute flex max-w-md flex-col gap-3 rounded-xl bg-white p-6 shadow-lg"
      >
        <h2 id="recorder-problem" className="text-lg font-semibold text-slate-900">
          {problem.title}
        </h2>
        <p className="text-sm text-slate-700">{problem.text}</p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => window.close()}>
            {Strings.recorderCancel}
          </Button>
          <Button onClick={onRetry}>{Strings.recorderTryAgain}</Button>
        </div>
      </div>
    );
  }
  if (phase === 'ended') {
    return (
      <div className="absolute flex max-w-md flex-col gap-3 rounded-xl bg-white p-6 text-center shadow-lg">
        <p className="text-sm text-slate-700">{endedMessage ?? Messages.recorderSessionEnded}</p>
        <Button onClick={() => window.location.reload()}>{Strings.recorderNewSession}</Button>
      </div>
    );
  }
  return (
    <div className="absolute flex items-center gap-2 text-sm text-slate-600">
      <Loader2 aria-hidden="true" className="size-4 animate-spin" />
      {phase === 'creating' ? Strings.recorderStateCreating : Strings.recorderStatePreparing}
    </div>
  );
}

function SidePanel({
  projectId,
  info,
  commands,
  enabled,
  assertHint,
  onAssert,
  onUndo,
  onPublished,
}: {
  projectId: string;
  info: RecorderSessionInfo | null;
  commands: RecordedCommand[];
  enabled: boolean;
  assertHint: boolean;
  onAssert: (type: RecorderAssertion, text?: string) => void;
  onUndo: () => void;
  onPublished: () => void;
}) {
  const [search] = useSearchParams();
  const [featureName, setFeatureName] = useState(search.get('feature_file')?.replace(/\.feature$/, '') ?? '');
  const [scenarioName, setScenarioName] = useState(search.get('scenario_name') ?? '');
  const [features, setFeatures] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [absentText, setAbsentText] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  // Keep the newest step in view as steps arrive.
  useEffect(() => {
    listRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [commands.length]);

  useEffect(() => {
    if (!projectId) return;
    api
      .call(workspaceCalls.getFeatureList, { body: { projectId } })
      .then((answer) => setFeatures(answer.features.map((f) => f.featureName)))
      .catch(() => setFeatures([]));
  }, [projectId]);

  const publish = async (event: FormEvent) => {
    event.preventDefault();
    if (!info) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.call(recorderCalls.publish, {
        body: { projectId, connectionId: info.connectionId, featureName, scenarioName },
      });
      setResult(
        `${Strings.recorderPublished}: ${answer.featureName} › ${answer.scenarioName}${answer.missingTestData.length ? `. ${Strings.recorderMissingData}${answer.missingTestData.join(', ')}` : ''}`,
      );
      onPublished();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <aside aria-label={Strings.recorderSteps} className="flex w-96 shrink-0 flex-col border-l border-slate-200 bg-white">
      <h2 className="px-4 pt-4 text-sm font-semibold text-slate-900">{Strings.recorderSteps}</h2>
      <ol ref={listRef} className="min-h-0 flex-1 overflow-y-auto px-4 py-2 text-sm" data-testid="recorded-steps">
        {commands.length === 0 && <li className="text-slate-500">{Strings.recorderNoSteps}</li>}
        {commands.map((command, index) => (
          <li key={index} className="flex items-start gap-2 border-b border-slate-100 py-1.5 text-slate-800">
            {command.type.startsWith('verify') ? (
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
            ) : (
              <Circle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
            )}
            <span className="break-words">{describeRecordedStep(command)}</span>
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-2 border-t border-slate-200 p-4">
        <fieldset className="flex flex-col gap-1.5" disabled={!enabled}>
          <legend className="mb-1 flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600">
            <Eye aria-hidden="true" className="size-3.5" />
            {Strings.recorderAddAssertion}
          </legend>
          <div className="grid grid-cols-3 gap-1.5">
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyVisible')}>
              {Strings.recorderAssertVisible}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyText')}>
              {Strings.recorderAssertText}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyValue')}>
              {Strings.recorderAssertValue}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyChecked')}>
              {Strings.recorderAssertChecked}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyCount')}>
              {Strings.recorderAssertCount}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyUrl')}>
              {Strings.recorderAssertUrl}
            </Button>
          </div>
          <div className="flex gap-1.5">
            <label htmlFor="recorder-absent" className="sr-only">
              {Strings.recorderAbsentText}
            </label>
            <input
              id="recorder-absent"
              value={absentText}
              onChange={(e) => setAbsentText(e.target.value)}
              placeholder={Strings.recorderAbsentText}
              maxLength={500}
              className="focus-ring min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
            />
            <Button
              size="sm"
              variant="secondary"
              disabled={absentText.trim() === ''}
              onClick={() => {
                onAssert('verifyNoText', absentText.trim());
                setAbsentText('');
              }}
            >
              {Strings.recorderAssertNotVisible}
            </Button>
          </div>
          {assertHint && (
            <p className="text-xs text-brand-700" role="status">
              {Strings.recorderAssertHint}
            </p>
          )}
        </fieldset>
        <Button variant="secondary" size="sm" onClick={onUndo} disabled={!enabled || commands.length <= 1}>
          <Undo2 aria-hidden="true" className="size-3.5" />
          {Strings.recorderUndo}
        </Button>
      </div>
      <form onSubmit={(e) => void publish(e)} className="flex flex-col gap-2 border-t border-slate-200 p-4">
        <label className="text-xs font-medium text-slate-700" htmlFor="recorder-feature">
          {Strings.recorderFeatureName}
        </label>
        <input
          id="recorder-feature"
          list="recorder-features"
          required
          maxLength={80}
          value={featureName}
          onChange={(e) => setFeatureName(e.target.value)}
          className="h-9 rounded-md border border-slate-300 px-2 text-sm"
        />
        <datalist id="recorder-features">
          {features.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <label className="text-xs font-medium text-slate-700" htmlFor="recorder-scenario">
          {Strings.recorderScenarioName}
        </label>
        <input
          id="recorder-scenario"
          required
          maxLength={80}
          value={scenarioName}
          onChange={(e) => setScenarioName(e.target.value)}
          className="h-9 rounded-md border border-slate-300 px-2 text-sm"
        />
        <Button type="submit" disabled={!enabled || busy || commands.length < 2}>
          <Send aria-hidden="true" className="size-3.5" />
          {Strings.recorderPublish}
        </Button>
        {result && (
          <p role="status" className="text-xs text-emerald-700">
            {result}
          </p>
        )}
        {error && (
          <p role="alert" className="text-xs text-red-700">
            {error}
          </p>
        )}
      </form>
    </aside>
  );
}
