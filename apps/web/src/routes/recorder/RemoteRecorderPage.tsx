import { Messages } from '@rehearse/contract';
import { useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { clock, hasUnpublishedSteps, isLive, stepsKey } from '../../features/recorder/remote-session';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { Strings } from '../../lib/strings';
import { CloudExecution } from './remote/CloudExecution';
import { RecorderOverlay } from './remote/RecorderOverlay';
import { RecorderSidePanel } from './remote/RecorderSidePanel';
import { RecorderStateBadge } from './remote/RecorderStateBadge';
import { useCanvasInput } from './remote/useCanvasInput';
import { useRecorderSession } from './remote/useRecorderSession';
import { useRecorderStream } from './remote/useRecorderStream';

/**
 * `/remote-recorder/{cmd}?project_id=` (spec 02 §2, §4): a path containing execute is execution
 * mode (the scenario runs in the cloud, nothing is recorded); any other is a recording.
 */
export function RemoteRecorderPage() {
  const { cmd = '' } = useParams();
  return cmd.includes('execute') ? <CloudExecution /> : <CloudRecording />;
}

/**
 * A cloud recorder session streamed into a canvas, with the recorded steps, assertions, undo and
 * publish beside it. A reload re-attaches to the user's live session.
 */
function CloudRecording() {
  useDocumentTitle(Strings.recordingInCloud);
  const [search] = useSearchParams();
  const projectId = search.get('project_id') ?? '';
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const session = useRecorderSession(projectId, search.get('env_name'), canvasRef);
  const { setPhase } = session;
  const stream = useRecorderStream(session.info?.connectionId, canvasRef, {
    onAttached: () => setPhase((p) => (p === 'published' ? p : 'connected')),
    onRefused: () => session.ended(Messages.recorderSessionEnded),
    onDisconnected: () => setPhase((p) => (p === 'ended' ? p : 'reconnecting')),
    onEnded: session.ended,
    onExpiry: session.expiresAt,
  });
  useCanvasInput(canvasRef, stream.send);

  // What the last Publish sent: ending warns only about steps recorded (or undone) since.
  const [publishedKey, setPublishedKey] = useState<string | null>(null);
  const unpublished = hasUnpublishedSteps(stream.commands, publishedKey);
  // The last Publish's self-check: `checking` from its answer until the server's outcome for that commit.
  const [publishedCommit, setPublishedCommit] = useState<string | null>(null);
  const check =
    stream.check && (publishedCommit === null || stream.check.commit === publishedCommit)
      ? stream.check
      : publishedCommit
        ? { state: 'checking' as const, commit: publishedCommit }
        : null;
  const checking = check?.state === 'checking';

  // The user is told how the replay went before leaving: closing the tab while it runs asks first.
  useEffect(() => {
    if (!checking) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [checking]);

  const { phase, info } = session;
  const live = isLive(phase);
  const lastMinute = phase === 'connected' && session.timeLeft <= 60_000;

  return (
    <div className="flex h-full flex-col bg-slate-100">
      <header className="flex h-14 shrink-0 items-center gap-4 border-b border-slate-200 bg-white px-5">
        <h1 className="text-base font-semibold text-slate-900">{Strings.recordingInCloud}</h1>
        <RecorderStateBadge phase={phase} />
        <span className="ml-auto text-sm tabular-nums text-slate-700" aria-label={Strings.recorderTimeLeft}>
          {info && live ? clock(session.timeLeft) : '--:--'}
        </span>
        <Button
          variant="danger"
          size="sm"
          onClick={() => {
            if (checking && !window.confirm(Messages.recorderCheckLeave)) return;
            void session.end(unpublished);
          }}
          disabled={!info || !live}
        >
          {Strings.recorderEndSession}
        </Button>
      </header>
      {(stream.warning || lastMinute) && live && (
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
          {!live && (
            <RecorderOverlay
              phase={phase}
              problem={session.problem}
              endedMessage={session.endedMessage}
              onRetry={() => void session.start()}
            />
          )}
        </section>
        <RecorderSidePanel
          projectId={projectId}
          info={info}
          commands={stream.commands}
          enabled={live}
          assertHint={stream.assertHint}
          onAssert={stream.assert}
          onUndo={stream.undo}
          upToDate={publishedKey !== null && !unpublished}
          onPublished={(commit) => {
            setPublishedKey(stepsKey(stream.commands));
            setPublishedCommit(commit);
            setPhase('published');
          }}
          check={check}
        />
      </main>
    </div>
  );
}
