import { randomUUID } from 'node:crypto';
import { environmentDisplayName, Limits, Messages, type CallParsed, type recorderCalls } from '@rehearse/contract';
import type { AccessKeysService } from '../auth/access-keys.service.js';
import type { Caller, ProjectAccess } from '../http/caller.js';
import { derivedToken, digestToken, TokenPrefix } from '../crypto/tokens.js';
import { badRequest, forbidden } from '../http/errors.js';
import { localLaunch, type LocalLaunch } from './local-launch.js';

/** Keys made for a launch are named so the Access keys page says what they were for. */
export const LAUNCH_KEY_PREFIX = 'Recorder launch ';

/**
 * A launch key is used again only while this much of its life is left: the recording it starts
 * publishes with it at the end, so a key an hour from expiry would fail the publish of a longer
 * session. Below this a new key is made, as if the last one had been used.
 */
export const LAUNCH_KEY_REUSE_MIN_MS = 3_600_000;

type LaunchRequest = CallParsed<typeof recorderCalls.localLaunch>['body'];

export interface LocalLaunchAnswer extends LocalLaunch {
  env: string;
  keyName: string;
  expiresAt: string;
}

/**
 * A local launch (issue 18): the environment must be one of the project's (never a made-up
 * default), the key is the caller's own with their role's reach, and it expires after
 * `Limits.recorderLaunchKeyHours`. The caller's last launch key is appended again while it has
 * not been used and has not expired (spec 01 §4: "with an access key appended if the last access
 * key exists and has not been used"), so clicking "Edit recording" five times leaves one key;
 * once it was used (or is about to expire) the launch makes a new one. Launch tokens are derived
 * from the key's id and the server key, so the server can answer the same token again without
 * storing it. The caller's expired launch keys are removed as new ones are made.
 */
export class LocalLaunchService {
  constructor(
    private readonly deps: {
      accessKeys: AccessKeysService;
      publicUrl: string;
      version: string;
      /** The server key (`REHEARSE_SECRET_KEY`): launch tokens are derived from it and the key's id. */
      secretKey: Buffer;
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

    // Only a signed-in person gets past this (a key cannot mint keys), so the keys below are theirs.
    const key = (await this.lastUnused(access.project.id, caller.user.id, now)) ?? (await this.newKey(caller, access, now));
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
    return { ...launch, env, keyName: key.name, expiresAt: key.expiresAt };
  }

  private launchToken(keyId: string): string {
    return derivedToken(TokenPrefix.accessKey, this.deps.secretKey, `recorder-launch-key:${keyId}`);
  }

  /** The person's newest launch key with its token, when it was never used and has life left. */
  private async lastUnused(
    projectId: string,
    userId: string,
    now: Date,
  ): Promise<{ token: string; name: string; expiresAt: string } | undefined> {
    const last = await this.deps.accessKeys.latestNamed(projectId, userId, LAUNCH_KEY_PREFIX);
    if (!last || last.lastUsedAt || !last.expiresAt || last.expiresAt.getTime() - now.getTime() < LAUNCH_KEY_REUSE_MIN_MS) return undefined;
    const token = this.launchToken(last.id);
    // A key made before launch tokens were derived (or under another server key) cannot be answered again.
    if (digestToken(token) !== last.tokenHash) return undefined;
    return { token, name: last.name, expiresAt: last.expiresAt.toISOString() };
  }

  private async newKey(caller: Caller, access: ProjectAccess, now: Date): Promise<{ token: string; name: string; expiresAt: string }> {
    const expiresAt = new Date(now.getTime() + Limits.recorderLaunchKeyHours * 3_600_000).toISOString();
    const name = `${LAUNCH_KEY_PREFIX}${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const id = randomUUID();
    const key = await this.deps.accessKeys.createForCaller(caller, access, name, expiresAt, now, { id, token: this.launchToken(id) });
    return { token: key.token, name, expiresAt };
  }
}
