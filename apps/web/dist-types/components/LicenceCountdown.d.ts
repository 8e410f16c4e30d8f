import type { Project } from '@rehearse/contract';
/** The top bar's licence countdown: shown at 30 or fewer days, orange at 3 or fewer (spec 01 §4). */
export declare function LicenceCountdown({ project }: {
    project: Project;
}): import("react").JSX.Element | null;
