import type { Project } from '@rehearse/contract';
import { Hourglass } from 'lucide-react';
import { licenceView } from '../features/projects/licence';
import { Strings } from '../lib/strings';

/**
 * The top bar's licence countdown: shown at 30 or fewer days, orange at 3 or fewer (spec 01 §4).
 * It opens the licence modal.
 */
export function LicenceCountdown({ project, onOpen }: { project: Project; onOpen: () => void }) {
  const licence = licenceView(project);
  if (!licence.showCountdown) return null;
  const text = licence.expired ? Strings.licenceExpiredShort : Strings.licenceDaysLeft(licence.daysShown);
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={`${Strings.licenceOpen}: ${licence.title}`}
      aria-haspopup="dialog"
      className={`focus-ring inline-flex h-8 shrink-0 items-center gap-1.5 rounded-full px-3 text-xs font-semibold whitespace-nowrap transition-colors ${
        licence.warning ? 'bg-orange-100 text-orange-800 hover:bg-orange-200' : 'bg-slate-100 text-slate-700 hover:bg-slate-200'
      }`}
    >
      <Hourglass aria-hidden="true" className="size-3.5" />
      <span data-testid="licence-countdown">{text}</span>
    </button>
  );
}
