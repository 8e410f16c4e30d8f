import type { Project } from '@rehearse/contract';
import { Strings } from '../../lib/strings';

/** Countdown shows at 30 or fewer days left, and turns orange at 3 or fewer (spec 01 §4, §9). */
export const LICENCE_COUNTDOWN_DAYS = 30;
export const LICENCE_WARNING_DAYS = 3;

export interface LicenceView {
  expired: boolean;
  /** Days as the UI shows them: the API's whole days left plus one (spec 01 §4). */
  daysShown: number;
  showCountdown: boolean;
  warning: boolean;
  /** The licence dialog's title for this state. */
  title: string;
}

/** How a project's licence reads in the UI. */
export function licenceView(project: Pick<Project, 'is_expired' | 'time_left'>): LicenceView {
  const daysLeft = Math.max(0, project.time_left.days);
  const daysShown = daysLeft + 1;
  const expired = project.is_expired;
  return {
    expired,
    daysShown,
    showCountdown: expired || daysLeft <= LICENCE_COUNTDOWN_DAYS,
    warning: expired || daysLeft <= LICENCE_WARNING_DAYS,
    title: expired ? Strings.licenceExpiredTitle : daysShown === 1 ? Strings.licenceOneDayTitle : Strings.licenceDaysTitle(daysShown),
  };
}
