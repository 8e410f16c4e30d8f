import {
  EnvironmentMessages,
  environmentDisplayName,
  environmentFileName,
  Messages,
  validateEnvironmentName,
  validateEnvironmentUrl,
  type EnvironmentEntry,
} from '@rehearse/contract';
import { badRequest, notFound } from '../http/errors.js';
import { Lru } from './lru.js';
import type { Workspace, WorkspaceService } from './workspace.service.js';
import type { Snapshot } from './workspace.store.js';

const ENV_DIR = 'environments';
const envPath = (name: string) => `${ENV_DIR}/${environmentFileName(name)}`;

type EnvironmentData = Record<string, unknown> & { baseUrl: string; name?: string | undefined };

/**
 * The environments of an `environments/` tree, by its object id (the same id is the same files,
 * whichever repository): listings are asked for far more often than environments change, and most
 * commits change other files.
 */
const environmentsByTree = new Lru<string, EnvironmentEntry[]>(256);

async function readEnvironments(snapshot: Snapshot): Promise<EnvironmentEntry[]> {
  const tree = await snapshot.oidAt(ENV_DIR);
  if (!tree) return [];
  const cached = environmentsByTree.get(tree);
  if (cached) return cached;
  const environments = await readEnvironmentFiles(snapshot);
  environmentsByTree.set(tree, environments);
  return environments;
}

async function readEnvironmentFiles(snapshot: Snapshot): Promise<EnvironmentEntry[]> {
  const entries = (await snapshot.list(ENV_DIR)).filter(
    (entry) => entry.path.endsWith('.json') && entry.path.indexOf('/', ENV_DIR.length + 1) === -1,
  );
  const blobs = await snapshot.git.readBlobs(entries.map((entry) => entry.oid));
  return entries.map((entry) => {
    const fileName = entry.path.slice(ENV_DIR.length + 1);
    let data: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(blobs.get(entry.oid)?.toString('utf8') ?? '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    } catch {
      // A hand-edited file that is not JSON still lists, with an empty URL, so it can be fixed or deleted.
    }
    return {
      name: fileName,
      data: {
        ...data,
        name: typeof data.name === 'string' ? data.name : environmentDisplayName(fileName),
        baseUrl: typeof data.baseUrl === 'string' ? data.baseUrl : '',
      },
    };
  });
}

function checkUrl(url: string): string {
  const trimmed = url.trim();
  const { error } = validateEnvironmentUrl(trimmed);
  if (error) throw badRequest(error);
  return trimmed;
}

function checkName(raw: string, existing: EnvironmentEntry[], current?: string): string {
  const { name, error } = validateEnvironmentName(
    environmentDisplayName(raw.trim()),
    existing.map((env) => env.name),
    current,
  );
  if (error) throw badRequest(error);
  return name;
}

/** Environments: one `environments/<name>.json` each, with the spec 01 §5 rules enforced here too. */
export class EnvironmentsService {
  constructor(private readonly workspaces: WorkspaceService) {}

  async list(ws: Workspace): Promise<{ allEnv: EnvironmentEntry[]; lastActiveEnv: string | null }> {
    const allEnv = await readEnvironments(await this.workspaces.read(ws));
    const state = await this.workspaces.state.get(ws.projectId, ws.actor.user.id);
    const last = allEnv.find((env) => env.name === state?.lastEnv)?.name ?? allEnv[0]?.name ?? null;
    return { allEnv, lastActiveEnv: last };
  }

  async create(ws: Workspace, rawName: string, data: EnvironmentData): Promise<EnvironmentEntry> {
    const baseUrl = checkUrl(data.baseUrl);
    const { entry } = await this.workspaces.write(ws, async (snapshot) => {
      const name = checkName(rawName, await readEnvironments(snapshot));
      const content = { ...data, name, baseUrl };
      return {
        changes: [{ path: envPath(name), content: `${JSON.stringify(content, null, 2)}\n` }],
        message: `[app:env.create] ${name}`,
        result: { entry: { name: environmentFileName(name), data: content } },
      };
    });
    return entry;
  }

  /** Changes an environment's URL or name; a rename keeps every other field and warns (spec 01 §5). */
  async edit(
    ws: Workspace,
    rawName: string,
    rawNewName: string | undefined,
    newData: EnvironmentData,
  ): Promise<{ env: EnvironmentEntry; warning: string | null }> {
    const baseUrl = checkUrl(newData.baseUrl);
    const current = environmentDisplayName(rawName.trim());
    const result = await this.workspaces.write(ws, async (snapshot) => {
      const existing = await readEnvironments(snapshot);
      const previous = existing.find((env) => env.name === environmentFileName(current));
      if (!previous) throw notFound(Messages.environmentNotFound);
      const name = rawNewName === undefined ? current : checkName(rawNewName, existing, environmentFileName(current));
      const renamed = name !== current;
      const content = { ...previous.data, ...newData, name, baseUrl };
      return {
        changes: [
          ...(renamed ? [{ path: envPath(current), content: null }] : []),
          { path: envPath(name), content: `${JSON.stringify(content, null, 2)}\n` },
        ],
        message: renamed ? `[app:env.rename] ${current} -> ${name}` : `[app:env.edit] ${name}`,
        result: { env: { name: environmentFileName(name), data: content }, renamed },
      };
    });
    if (result.renamed) await this.followRename(ws, environmentFileName(current), result.env.name);
    return { env: result.env, warning: result.renamed ? EnvironmentMessages.renameWarning : null };
  }

  async delete(ws: Workspace, rawName: string): Promise<void> {
    const name = environmentDisplayName(rawName.trim());
    const { remaining } = await this.workspaces.write(ws, async (snapshot) => {
      const existing = await readEnvironments(snapshot);
      if (!existing.some((env) => env.name === environmentFileName(name))) throw notFound(Messages.environmentNotFound);
      return {
        changes: [{ path: envPath(name), content: null }],
        message: `[app:env.delete] ${name}`,
        result: { remaining: existing.filter((env) => env.name !== environmentFileName(name)) },
      };
    });
    // Deleting the current environment selects the first remaining one, or none (spec 01 §4).
    const state = await this.workspaces.state.get(ws.projectId, ws.actor.user.id);
    if (!state?.lastEnv || state.lastEnv === environmentFileName(name)) {
      await this.workspaces.state.update(ws.projectId, ws.actor.user.id, { lastEnv: remaining[0]?.name ?? null });
    }
  }

  private async followRename(ws: Workspace, from: string, to: string): Promise<void> {
    const state = await this.workspaces.state.get(ws.projectId, ws.actor.user.id);
    if (state?.lastEnv === from) await this.workspaces.state.update(ws.projectId, ws.actor.user.id, { lastEnv: to });
  }
}
