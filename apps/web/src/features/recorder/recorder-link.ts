import { environmentDisplayName } from '@rehearse/contract';
import type { WorkspaceScope } from '../workspace/scope';

/**
 * The open-recorder operations the features page starts (spec 01 §1, §4): record, implement a
 * step through the API, or open the workspace in a code editor.
 */
export type RecorderOperation = 'recorder' | 'apitest' | 'open_vscode';

/**
 * The open-recorder page's link for a scenario (spec 01 §4 params), opened in a new tab. A new
 * recording names no feature or scenario yet, so empty names are left out; `extra` adds the
 * step's params (`step_index`, `stepSource`). The environment goes in without `.json`, as everywhere it is shown.
 */
export function recorderLink(
  scope: WorkspaceScope,
  feature: string,
  scenario: string,
  environment: string | null,
  extra: Record<string, string> = {},
  operation: RecorderOperation = 'recorder',
): string {
  const params = new URLSearchParams({
    project_id: scope.projectId,
    ...(feature ? { feature_file: feature } : {}),
    ...(scenario ? { scenario_name: scenario } : {}),
    fromMainApp: 'true',
    ...(environment ? { env_name: environmentDisplayName(environment) } : {}),
    ...(scope.branch ? { git_branch: scope.branch } : {}),
    ...extra,
  });
  return `/open-recorder/${operation}?${params.toString()}`;
}
