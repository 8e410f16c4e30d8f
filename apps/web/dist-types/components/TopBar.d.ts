import type { Project } from '@rehearse/contract';
/**
 * The project top bar. Environment and branch selectors and the Record scenario button of spec
 * 01 §2 join the project selector here when their screens are built.
 */
export declare function TopBar({ projects, project }: {
    projects: Project[];
    project: Project;
}): import("react").JSX.Element;
