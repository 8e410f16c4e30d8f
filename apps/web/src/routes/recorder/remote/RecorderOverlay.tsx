import { Messages } from '@rehearse/contract';
import { Loader2 } from 'lucide-react';
import { Button } from '../../../components/Button';
import type { RecorderPhase as Phase, RecorderProblem as Problem } from '../../../features/recorder/remote-session';
import { Strings } from '../../../lib/strings';
import { OpenSessions } from '../../../features/recorder/components/OpenSessions';

/** Over the display while it is not live: the error screen with Cancel and Try again (and, at the session limit, the open sessions to end), the ended screen, or progress. */
export function RecorderOverlay({
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
        {problem.title === Messages.recorderMaxSessionsTitle && <OpenSessions />}
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
