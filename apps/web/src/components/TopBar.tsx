import type { Project } from '@rehearse/contract';
import { LicenceCountdown } from './LicenceCountdown';
import { ProjectSelector } from './ProjectSelector';

/**
 * The project top bar. Environment and branch selectors and the Record scenario button of spec
 * 01 §2 join the project selector here when their screens are built.
 */
export function TopBar({ projects, project }: { projects: Project[]; project: Project }) {
  return (
    <div className="flex h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white/80 px-8 backdrop-blur">
      <ProjectSelector projects={projects} current={project} />
      <div className="ml-auto flex items-center gap-3">
        <LicenceCountdown project={project} />
      </div>
    </div>
  );
}
