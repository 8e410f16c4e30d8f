import { Messages } from '@rehearse/contract';
import { Loader2 } from 'lucide-react';
import type { RecorderPhase as Phase } from '../../../features/recorder/remote-session';
import { Strings } from '../../../lib/strings';

/** The session's phase in the header, spinning while it is on its way. */
export function RecorderStateBadge({ phase }: { phase: Phase }) {
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
