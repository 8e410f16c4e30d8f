import { Messages } from '@rehearse/contract';
import { badRequest, notFound } from '../http/errors.js';
import { describeErrors } from './features.service.js';
import { parseFeature } from './gherkin/index.js';
import { workspaceDirectory, workspacePath } from './paths.js';
import type { Workspace, WorkspaceService } from './workspace.service.js';

/** Plain file access to a workspace (push-file, get-files, delete-file, get-file-content, history). */
export class FilesService {
  constructor(private readonly workspaces: WorkspaceService) {}

  async push(ws: Workspace, directory: string, name: string, content: string) {
    const filePath = workspacePath(directory, name);
    // A feature file must be valid Gherkin, whichever door it comes through.
    if (filePath.endsWith('.feature')) {
      const parsed = parseFeature(content);
      if (!parsed.ok) throw badRequest(describeErrors(parsed.errors));
    }
    return this.workspaces.write(ws, async () => ({
      changes: [{ path: filePath, content }],
      message: `[app:file.push] ${filePath}`,
      result: { path: filePath },
    }));
  }

  async list(ws: Workspace, directory: string) {
    const prefix = workspaceDirectory(directory);
    const snapshot = await this.workspaces.read(ws);
    const entries = await snapshot.list(prefix);
    return entries
      .filter((entry) => !prefix || entry.path.startsWith(`${prefix}/`))
      .map((entry) => ({ name: entry.path.slice(entry.path.lastIndexOf('/') + 1), path: entry.path, size: entry.size }));
  }

  async delete(ws: Workspace, directory: string, fileName: string) {
    const filePath = workspacePath(directory, fileName);
    return this.workspaces.write(ws, async (snapshot) => {
      if ((await snapshot.readText(filePath)) === null) throw notFound(Messages.fileNotFound);
      return { changes: [{ path: filePath, content: null }], message: `[app:file.delete] ${filePath}`, result: {} };
    });
  }

  /** A file's text; symbolic links are not files here (they could point outside the workspace). */
  async content(ws: Workspace, rawPath: string): Promise<{ path: string; content: string }> {
    const filePath = workspacePath(rawPath);
    const snapshot = await this.workspaces.read(ws);
    const [entry] = (await snapshot.list(filePath)).filter((candidate) => candidate.path === filePath);
    if (!entry) throw notFound(Messages.fileNotFound);
    const blob = (await ws.git.readBlobs([entry.oid])).get(entry.oid);
    if (!blob) throw notFound(Messages.fileNotFound);
    return { path: filePath, content: blob.toString('utf8') };
  }

  async lastUpdated(ws: Workspace, directory: string, file: string): Promise<string | null> {
    const filePath = workspacePath(directory, file);
    const snapshot = await this.workspaces.read(ws);
    return ws.git.lastChanged(snapshot.commit, filePath);
  }

  async versions(ws: Workspace, limit: number) {
    const snapshot = await this.workspaces.read(ws);
    const log = await ws.git.log(snapshot.commit, limit);
    return log.map((entry) => ({ commit: entry.commit, date: entry.date, author: entry.author, message: entry.subject }));
  }
}
