import type { Project } from '@rehearse/contract';
import { useOutletContext } from 'react-router';

/** What the project layout gives the screens under /{projectId}/. */
export interface ProjectOutletContext {
  project: Project;
  projects: Project[];
}

/**
 * The current project, for screens under /{projectId}/ (the layout has already checked it). Its
 * own module, so a screen the layout loads lazily does not import the layout back.
 */
export function useCurrentProject(): ProjectOutletContext {
  return useOutletContext<ProjectOutletContext>();
}
