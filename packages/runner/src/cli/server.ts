import { ApiError, createApiClient } from '@rehearse/api-client';
import { runnerCalls, runnerDownloadPath, systemCalls } from '@rehearse/contract';
import { UsageError } from '../support/settings.js';
import type { CliIo } from './io.js';
import { RUNNER_VERSION } from './package-files.js';

/** What a command knows of the project before it asks the server. */
export interface ProjectHint {
  /** --project or REHEARSE_PROJECT: checked against the key. */
  given?: string | undefined;
  /** The project a pulled folder remembers (.rehearse/project.json). */
  remembered?: string | undefined;
}

/**
 * Warns (on stderr, once per command) when the server speaks another version than this runner:
 * a runner installed from one server and pointed at another may send calls it does not know.
 * Says nothing when the server cannot be reached: the command's own call reports that.
 */
export async function warnOnVersionMismatch(io: Pick<CliIo, 'fetch' | 'stderr'>, server: string): Promise<void> {
  const client = createApiClient({ baseUrl: server, fetch: io.fetch });
  const health = await client.call(systemCalls.health, {}).catch(() => undefined);
  if (!health || health.version === RUNNER_VERSION) return;
  io.stderr.write(
    `rehearse: warning: this runner is version ${RUNNER_VERSION} but the server at ${server} is version ${health.version}. ` +
      `Install the server's runner: npm install ${server.replace(/\/+$/, '')}${runnerDownloadPath('latest')}\n`,
  );
}

/**
 * The project a command works on, given a server and an access token (issue 18: a token is
 * enough). An access key belongs to one project, so the server names it; --project (or
 * REHEARSE_PROJECT), when given, must be that project. A token that is not an access key (a
 * sign-in session) names no project: then --project or the pulled folder's project is used.
 */
export async function resolveProject(io: Pick<CliIo, 'fetch'>, server: string, token: string, hint: ProjectHint): Promise<string> {
  const client = createApiClient({ baseUrl: server, getToken: () => token, fetch: io.fetch });
  let keyProject: string | undefined;
  let refusal: string | undefined;
  let unreachable: Error | undefined;
  try {
    keyProject = (await client.call(runnerCalls.keyProject, {})).projectId;
  } catch (error) {
    // A wrong token (401) or an unreachable server is reported by the command's own call when a
    // project is known; 403 is a session token, which has no project of its own; 404 a server
    // older than this call.
    if (error instanceof ApiError && error.httpStatus === 401) refusal = error.message;
    else if (!(error instanceof ApiError)) unreachable = error instanceof Error ? error : new Error(String(error));
  }
  if (keyProject && hint.given && hint.given !== keyProject) {
    throw new UsageError(`--project ${hint.given} is not the project of this access key (it belongs to project ${keyProject})`);
  }
  const projectId = keyProject ?? hint.given ?? hint.remembered;
  if (projectId) return projectId;
  if (refusal) throw new UsageError(`The server at ${server} refused the token: ${refusal}`);
  // No answer at all: that is the problem to report (rehearse's entry point words it), not the project.
  if (unreachable) throw unreachable;
  throw new UsageError(
    `Which project? Pass --project <id> (shown on the project's "How to run in CI/CD" page) or set REHEARSE_PROJECT: this token is not an access key, which would name its project`,
  );
}

/**
 * fetch's own failure (no answer at all: refused, unknown host, bad port) as one sentence a person
 * can act on, instead of undici's stack; anything else is not this.
 */
export function unreachableServer(error: unknown): string | undefined {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return undefined;
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const why = [cause?.code, cause?.message].filter(Boolean).join(': ') || 'no answer';
  return `the server did not answer (${why}). Check --server (or REHEARSE_SERVER) and that this machine reaches it.`;
}
