import type { Project } from '@rehearse/contract';
interface ProjectOutletContext {
    project: Project;
    projects: Project[];
}
/** The current project, for screens under /{projectId}/ (the layout has already checked it). */
export declare function useCurrentProject(): ProjectOutletContext;
/**
 * The shell of every project screen: header, sidebar, top bar and the screen. An unknown
 * projectId goes to the first project's dashboard, or shows an error without projects (spec 01 §2).
 */
export declare function ProjectLayout(): import("react").JSX.Element;
export {};
