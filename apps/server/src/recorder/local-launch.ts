import { environmentFileName, Limits, type RecorderOperation } from '@rehearse/contract';
import { npmInstallVersionCommand, npxRehearse, runnerPackageUrl, shellWord } from '../downloads/install-commands.js';

export interface LocalLaunchInput {
  serverUrl: string;
  /** The server's version: the runner the command installs is exactly this one. */
  version: string;
  operation: RecorderOperation;
  projectId: string;
  /** An existing environment's name (without .json). */
  env: string;
  branch: string;
  featureName?: string | undefined;
  scenarioName?: string | undefined;
  /** The token of the key made for this launch: shown in this answer and never again. */
  token: string;
}

export interface LocalLaunch {
  command: string;
  deepLink: string;
  setupCommand: string;
  installCommand: string;
}

/** The scheme `rehearse setup` registers and `rehearse open` reads. */
export const DEEP_LINK_SCHEME = 'rehearse:';

/** The folder a launch that pulls the workspace writes into, in the terminal's current folder. */
export const launchFolder = (projectId: string) => `rehearse-${projectId.slice(0, 8)}`;

/**
 * "Record scenario → Locally" and the open-recorder page (issue 18): the one command a user
 * runs on their own machine. npx installs the runner this server serves (no global install, no
 * folder of the user's touched but the one a pull makes), and the launch key rides in
 * REHEARSE_TOKEN, never as an argument other processes could list. The deep link carries the same
 * for `rehearse open`, the handler `rehearse setup` registers.
 */
export function localLaunch(input: LocalLaunchInput): LocalLaunch {
  const server = input.serverUrl.replace(/\/+$/, '');
  const rehearse = npxRehearse(server, input.version);
  const branch = input.branch === Limits.defaultBranch ? '' : ` --branch ${shellWord(input.branch)}`;
  const token = `REHEARSE_TOKEN=${shellWord(input.token)}`;
  const folder = launchFolder(input.projectId);
  const pull = `${rehearse} pull --server ${shellWord(server)}${branch} --dir ${folder}`;
  const featureFile = input.featureName ? ` ${shellWord(`features/${input.featureName}.feature`)}` : '';
  const scenario = input.scenarioName ? ` --scenario ${shellWord(input.scenarioName)}` : '';
  let command: string;
  switch (input.operation) {
    case 'recorder':
    case 'ai_learn': {
      const names = `${input.featureName ? ` --feature ${shellWord(input.featureName)}` : ''}${scenario}`;
      command = `${token} ${rehearse} record --server ${shellWord(server)} --env ${shellWord(input.env)}${branch}${names}`;
      break;
    }
    case 'execute':
    case 'apitest':
      command = `export ${token} && ${pull} && cd ${folder} && ${rehearse} run --env ${shellWord(`environments/${environmentFileName(input.env)}`)} --headed${scenario}${featureFile}`;
      break;
    case 'open_vscode':
      command = `export ${token} && ${pull} && code ${folder}`;
      break;
  }
  const params = new URLSearchParams({ project_id: input.projectId, env_name: input.env, git_branch: input.branch });
  if (input.featureName) params.set('feature_file', `${input.featureName}.feature`);
  if (input.scenarioName) params.set('scenario_name', input.scenarioName);
  params.set('server', server);
  params.set('token', input.token);
  // The handler outlives this launch, so it runs from a lasting install, not from npx's cache (which npm may clean).
  const setupCommand = `npm install --global --no-audit --no-fund ${shellWord(runnerPackageUrl(server, input.version))} && rehearse setup --server ${shellWord(server)}`;
  // Named here, not by the page, so it names the same server as the commands above it.
  const installCommand = npmInstallVersionCommand(server, input.version);
  return { command, deepLink: `${DEEP_LINK_SCHEME}//${input.operation}?${params.toString()}`, setupCommand, installCommand };
}
