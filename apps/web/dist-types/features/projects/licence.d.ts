import type { Project } from '@rehearse/contract';
/** Countdown shows at 30 or fewer days left, and turns orange at 3 or fewer (spec 01 §4, §9). */
export declare const LICENCE_COUNTDOWN_DAYS = 30;
export declare const LICENCE_WARNING_DAYS = 3;
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
export declare function licenceView(project: Pick<Project, 'is_expired' | 'time_left'>): LicenceView;
