import { Messages } from '@rehearse/contract';

/**
 * Why the workspace store refused a read or a write; nothing was written. The error reads as the
 * catalogue's sentence (a job or a log that meets it says what a user would read), and the route
 * edge (`workspaceErrorToHttp` in workspace.routes.ts, applied to every call in app.ts) picks the
 * HTTP status.
 */
export type WorkspaceRefusal =
  'branch-missing' | 'commit-missing' | 'file-not-json' | 'changed-while-saving' | 'file-too-large' | 'binary-content' | 'file-not-utf8';

const SENTENCES: Record<WorkspaceRefusal, (subject: string) => string> = {
  'branch-missing': (branch) => Messages.workspaceBranchMissing(branch),
  'commit-missing': () => Messages.commitNotFound,
  'file-not-json': (path) => Messages.workspaceFileNotJson(path),
  'changed-while-saving': () => Messages.workspaceChangedWhileSaving,
  'file-too-large': () => Messages.workspaceFileTooLarge,
  'binary-content': () => Messages.binaryContent,
  'file-not-utf8': () => Messages.workspaceFileNotUtf8,
};

export class WorkspaceRefused extends Error {
  constructor(
    readonly reason: WorkspaceRefusal,
    /** The branch or file path the refusal is about, where it names one. */
    readonly subject = '',
  ) {
    super(SENTENCES[reason](subject));
    this.name = 'WorkspaceRefused';
  }
}
