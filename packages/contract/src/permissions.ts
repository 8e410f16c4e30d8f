import type { ProjectRole } from './call.js';

/**
 * Actions a web screen may ask about through checkRole before enabling a control.
 * The server enforces the same table on the calls themselves.
 */
export const ProjectActions = {
  sendInvitation: ['ADMIN'],
  removeMember: ['ADMIN'],
  deleteProject: ['ADMIN'],
  configurePrivateRepo: ['ADMIN'],
  createAccessKey: ['ADMIN', 'MEMBER'],
  editWorkspace: ['ADMIN', 'MEMBER'],
  runScenarios: ['ADMIN', 'MEMBER'],
} as const satisfies Record<string, readonly ProjectRole[]>;

export type ProjectAction = keyof typeof ProjectActions;

export function roleAllows(role: ProjectRole, action: ProjectAction): boolean {
  return (ProjectActions[action] as readonly ProjectRole[]).includes(role);
}
