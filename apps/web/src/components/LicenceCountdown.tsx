import type { Project } from '@rehearse/contract';
import { Hourglass } from 'lucide-react';
import { licenceView } from '../features/projects/licence';
import { Strings } from '../lib/strings';

/** The top bar's licence countdown: shown at 30 or fewer days, orange at 3 or fewer (spec 01 §4). */
export function LicenceCountdown({ project }: { project: Project }) {
  const licence = licenceView(project);
  if (!licence.showCountdown) return null;
  return (
    <span
      data-testid="licence-countdown"
      title={licence.title}
      className={`inline-flex items-center gap-1.5 rounded-full px-3 py-1.5 text-xs font-semibold ${
        licence.warning ? 'bg-orange-100 text-orange-700' : 'bg-slate-100 text-slate-600'
      }`}
    >
      <Hourglass aria-hidden="true" className="size-3.5" />
      {licence.expired ? Strings.licenceExpiredShort : Strings.licenceDaysLeft(licence.daysShown)}
    </span>
  );
}
