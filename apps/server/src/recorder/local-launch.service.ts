import { environmentDisplayName, Limits, Messages, type CallParsed, type recorderCalls } from '@rehearse/contract';
import type { AccessKeysService } from '../auth/access-keys.service.js';
import type { Caller, ProjectAccess } from '../auth/caller.js';
import { badRequest, forbidden } from '../http/errors.js';
import { localLaunch, type LocalLaunch } from './local-launch.js';

/** Keys made for a launch are named so the Access keys page says what they were for. */
export const LAUNCH_KEY_PREFIX = 'Recorder launch ';

type LaunchRequest = CallParsed<typeof recorderCalls.localLaunch>['body'];

export interface LocalLaunchAnswer extends LocalLaunch {
  env: string;
  keyName: string;
  expiresAt: string;
}

/**
 * A local launch (issue 18): the environment must be one of the project's (never a made-up
 * default), the key is the caller's own with their role's reach, and it expires after
 * `Limits.recorderLaunchKeyHours`. Each launch makes its own key, so no token is ever shown twice;
 * the caller's expired launch keys are removed as new ones are made.
 */
export class LocalLaunchService {
  constructor(
    private readonly deps: {
      accessKeys: AccessKeysService;
      publicUrl: string;
      version: string;
      /** The project's environment names (without .json) at a branch. */
      environmentNames: (caller: Caller, access: ProjectAccess, branch: string) => Promise<string[]>;
    },
  ) {}

  async launch(caller: Caller, access: ProjectAccess, request: LaunchRequest, now = new Date()): Promise<LocalLaunchAnswer> {
    // A launch makes a key, and a key cannot make keys: refused before anything else is looked at.
    if (caller.kind !== 'session') throw forbidden(Messages.accessKeyManageNeedsSession);
    const branch = request.branch || Limits.defaultBranch;
    const environments = await this.deps.environmentNames(caller, access, branch);
    const asked = request.env ? environmentDisplayName(request.env) : undefined;
    if (asked && !environments.includes(asked)) throw badRequest(Messages.instructionsUnknownEnvironment);
    const env = asked ?? environments[0];
    if (!env) throw badRequest(Messages.recorderLaunchNoEnvironment);

    const expiresAt = new Date(now.getTime() + Limits.recorderLaunchKeyHours * 3_600_000);
    const keyName = `${LAUNCH_KEY_PREFIX}${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    // Only a signed-in person gets past this (a key cannot mint keys), so the clean-up below is theirs.
    const key = await this.deps.accessKeys.createForCaller(caller, access, keyName, expiresAt.toISOString(), now);
    await this.deps.accessKeys.removeExpired(access.project.id, caller.user.id, LAUNCH_KEY_PREFIX, now);
    const launch = localLaunch({
      serverUrl: this.deps.publicUrl,
      version: this.deps.version,
      operation: request.operation,
      projectId: access.project.id,
      env,
      branch,
      featureName: request.featureName?.replace(/\.feature$/, '') || undefined,
      scenarioName: request.scenarioName || undefined,
      token: key.token,
    });
    return { ...launch, env, keyName, expiresAt: expiresAt.toISOString() };
  }
}
