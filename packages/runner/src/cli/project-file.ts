import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What `rehearse pull` remembers about a workspace folder, so `rehearse run` needs no --project. */
export interface ProjectFile {
  projectId: string;
  server?: string;
  branch?: string;
  commit?: string;
  pulledAt?: string;
}

export const PROJECT_FILE = path.join('.rehearse', 'project.json');

/** Reads `<dir>/.rehearse/project.json`, or undefined when absent or unreadable. */
export function readProjectFile(dir: string): ProjectFile | undefined {
  const file = path.join(dir, PROJECT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<ProjectFile>;
    return typeof raw.projectId === 'string' && raw.projectId ? (raw as ProjectFile) : undefined;
  } catch {
    return undefined;
  }
}

export function writeProjectFile(dir: string, project: ProjectFile): void {
  const file = path.join(dir, PROJECT_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(project, null, 2)}\n`);
}
