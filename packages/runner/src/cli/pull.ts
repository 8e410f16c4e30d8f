import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { workspaceCalls, buildPath, CUCUMBER_PROFILE, CUCUMBER_PROFILE_FILE, Headers } from '@rehearse/contract';
import { UsageError } from '../support/settings.js';
import { parse, PULL_OPTIONS, USAGE } from './args.js';
import { DEFAULT_SERVER, EXIT, type CliIo } from './io.js';
import { readProjectFile, writeProjectFile } from './project-file.js';
import { resolveProject, warnOnVersionMismatch } from './server.js';
import { extractTar, TarError } from './tar.js';

/**
 * GETs the workspace archive. The api-client parses every answer as JSON, and this one is a tar
 * stream, so this is the one call made with fetch directly — sending the same headers the client
 * sends (trace id, session id, project id, bearer), so the server logs and authorizes it alike.
 */
export async function downloadWorkspace(
  io: CliIo,
  options: { server: string; token: string; projectId: string; branch?: string; commit?: string },
): Promise<{ archive: Buffer; projectId: string; commit?: string; branch?: string }> {
  const query = new URLSearchParams({
    projectId: options.projectId,
    ...(options.branch ? { branch: options.branch } : {}),
    ...(options.commit ? { commit: options.commit } : {}),
  });
  const url = `${options.server.replace(/\/+$/, '')}${buildPath(workspaceCalls.download.path, undefined)}?${query.toString()}`;
  const traceId = crypto.randomUUID();
  const response = await io.fetch(url, {
    method: workspaceCalls.download.method,
    headers: {
      [Headers.trace]: traceId,
      [Headers.session]: crypto.randomUUID(),
      [Headers.projectId]: options.projectId,
      authorization: `Bearer ${options.token}`,
    },
  });
  if (!response.ok) {
    const payload = (await response.json().catch(() => null)) as { error?: unknown } | null;
    const reason = typeof payload?.error === 'string' ? payload.error : `Network response was not ok (${response.status})`;
    throw new Error(`${reason} (HTTP ${response.status}, trace ${traceId})`);
  }
  return {
    archive: Buffer.from(await response.arrayBuffer()),
    projectId: response.headers.get(Headers.projectId) ?? options.projectId,
    ...(response.headers.get('x-rehearse-commit') ? { commit: response.headers.get('x-rehearse-commit')! } : {}),
    ...(response.headers.get('x-rehearse-branch') ? { branch: response.headers.get('x-rehearse-branch')! } : {}),
  };
}

/** `rehearse pull`: downloads the workspace into --dir and remembers the project there. */
export async function runPull(args: string[], io: CliIo): Promise<number> {
  const { values: opts, positionals } = parse(args, PULL_OPTIONS);
  if (opts.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`rehearse pull takes no arguments (got "${positionals.join(' ')}")`);
  const token = opts.token ?? io.env.REHEARSE_TOKEN;
  if (!token) throw new UsageError('rehearse pull needs --token T (or REHEARSE_TOKEN): an access token of the project');
  const dir = path.resolve(io.cwd, opts.dir ?? '.');
  const remembered = readProjectFile(dir);
  const server = opts.server ?? io.env.REHEARSE_SERVER ?? remembered?.server ?? DEFAULT_SERVER;
  await warnOnVersionMismatch(io, server);
  const projectId = await resolveProject(io, server, token, {
    given: opts.project ?? io.env.REHEARSE_PROJECT,
    remembered: remembered?.projectId,
  });
  const branch = opts.branch ?? remembered?.branch;
  let files: number;
  let download: Awaited<ReturnType<typeof downloadWorkspace>>;
  try {
    download = await downloadWorkspace(io, {
      server,
      token,
      projectId,
      ...(branch ? { branch } : {}),
      ...(opts.commit ? { commit: opts.commit } : {}),
    });
    files = await extractTar(download.archive, dir);
  } catch (error) {
    const message =
      error instanceof TarError ? error.message : `Could not download the workspace from ${server}: ${(error as Error).message}`;
    io.stderr.write(`${message}\n`);
    return EXIT.failed;
  }
  // Older workspaces lack the cucumber-js profile new ones get: plain cucumber-js runs them too.
  if (!existsSync(path.join(dir, CUCUMBER_PROFILE_FILE))) writeFileSync(path.join(dir, CUCUMBER_PROFILE_FILE), CUCUMBER_PROFILE);
  const pulledBranch = download.branch ?? branch;
  writeProjectFile(dir, {
    projectId: download.projectId,
    server,
    ...(pulledBranch ? { branch: pulledBranch } : {}),
    ...(download.commit ? { commit: download.commit } : {}),
    pulledAt: new Date().toISOString(),
  });
  io.stdout.write(
    `Pulled ${files} file${files === 1 ? '' : 's'} of project ${download.projectId}${pulledBranch ? ` (${pulledBranch}` : ''}${download.commit ? ` @ ${download.commit.slice(0, 12)}` : ''}${pulledBranch ? ')' : ''} into ${dir}\n`,
  );
  return EXIT.ok;
}
