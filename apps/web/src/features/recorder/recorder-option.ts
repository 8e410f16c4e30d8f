import { environmentDisplayName } from '@rehearse/contract';
import { StorageKeys } from '../../lib/storage-keys';

/** Where the recorder opens (spec 01 §4): on the user's machine, or in a browser on the server. */
export type RecorderOption = 'local' | 'cloud';

/** The remembered choice; Locally until the user picks otherwise. */
export function readRecorderOption(): RecorderOption {
  try {
    return localStorage.getItem(StorageKeys.recorderOption) === 'cloud' ? 'cloud' : 'local';
  } catch {
    return 'local';
  }
}

export function saveRecorderOption(option: RecorderOption): void {
  try {
    localStorage.setItem(StorageKeys.recorderOption, option);
  } catch {
    // Not remembered this time; the choice still applies.
  }
}

export interface RecorderLaunch {
  projectId: string;
  /** Environment file name, e.g. `staging.json`; the link carries it without `.json`. */
  envName: string;
  branch: string | undefined;
}

/**
 * The page that launches the recorder: `/open-recorder/recorder` (local, spec 01 §2 params) or
 * `/remote-recorder/record` (cloud). Both open in a new tab.
 */
export function recorderUrl(option: RecorderOption, launch: RecorderLaunch): string {
  const envName = environmentDisplayName(launch.envName);
  if (option === 'cloud') {
    // env_name beyond the spec's project_id: the cloud session opens the environment picked here.
    return `/remote-recorder/record?${new URLSearchParams({ project_id: launch.projectId, env_name: envName }).toString()}`;
  }
  const params = new URLSearchParams({
    project_id: launch.projectId,
    env_name: envName,
    fromMainApp: 'true',
  });
  if (launch.branch) params.set('git_branch', launch.branch);
  return `/open-recorder/recorder?${params.toString()}`;
}
