import { runnerDownloadPath } from '@rehearse/contract';

/** A word for bash: as it is when it is safe, else single-quoted (so `$(…)`, quotes and `#` stay text). */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Where this server's runner tarball is: `latest` for CI text that follows the server, a version for a pinned install. */
export function runnerPackageUrl(serverUrl: string, version: string): string {
  return `${serverUrl.replace(/\/+$/, '')}${runnerDownloadPath(version)}`;
}

/** Installs the runner from the server into the current folder (CI: the job's folder is thrown away). */
export function npmInstallCommand(serverUrl: string): string {
  return `npm install --no-save --no-audit --no-fund ${shellWord(runnerPackageUrl(serverUrl, 'latest'))}`;
}

/** Installs one version of the runner from the server into the current folder (the open-recorder page's manual install). */
export function npmInstallVersionCommand(serverUrl: string, version: string): string {
  return `npm install --no-save ${shellWord(runnerPackageUrl(serverUrl, version))}`;
}

/**
 * `rehearse` without installing anything into the user's folders: npx keeps the package in its
 * own cache. The URL names the server's version, not `latest`, because npx reuses what it cached
 * for a URL: after an upgrade the new version's URL is a new package, never a stale one.
 */
export function npxRehearse(serverUrl: string, version: string): string {
  return `npx --yes --package ${shellWord(runnerPackageUrl(serverUrl, version))} rehearse`;
}
