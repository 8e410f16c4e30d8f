import type { Project } from '@rehearse/contract';
/**
 * The top bar's project selector: lists the caller's projects; choosing one saves it as the
 * active project and goes to its dashboard (spec 01 §4).
 */
export declare function ProjectSelector({ projects, current }: {
    projects: Project[];
    current: Project;
}): import("react").JSX.Element;
