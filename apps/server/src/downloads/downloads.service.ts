import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runnerDownloadPath, runnerTarballName, type ReleaseAsset } from '@rehearse/contract';

/** A file the server may send: where it is and what it is. */
export interface DownloadFile {
  path: string;
  name: string;
  size: number;
  contentType: string;
}

const TARBALL_TYPE = 'application/gzip';
/** `rehearse-runner-<version>.tgz`; versions are semver-like, never a path. */
const TARBALL = /^rehearse-runner-([0-9A-Za-z][0-9A-Za-z.+-]{0,63})\.tgz$/;

/**
 * The client downloads this server offers (issue 18): the runner package the build puts in
 * `dir` (packages/cli/dist-pack by default, RUNNER_PACKAGE_DIR otherwise). `latest` is this
 * server's own version; any other version is served only when its tarball is in that folder.
 */
export class DownloadsService {
  constructor(
    private readonly dir: string,
    readonly version: string,
    private readonly publicUrl: string,
  ) {}

  /** The runner tarball a download file name asks for, or null (unknown name or version, not built). */
  runnerPackage(fileName: string): DownloadFile | null {
    const match = TARBALL.exec(fileName);
    if (!match?.[1]) return null;
    const name = runnerTarballName(match[1] === 'latest' ? this.version : match[1]);
    const file = path.join(this.dir, name);
    if (!existsSync(file)) return null;
    return { path: file, name, size: statSync(file).size, contentType: TARBALL_TYPE };
  }

  /** Whether this server's own runner package has been built (a missing one is a setup problem, not a bad URL). */
  hasCurrentPackage(): boolean {
    return this.runnerPackage(runnerTarballName(this.version)) !== null;
  }

  /**
   * The playwright-core version the runner package pins (its build stamp lists the package's
   * dependencies), so a CI installs the browser build that runner drives. A folder without a
   * stamp falls back to the playwright-core installed beside this server, which the build pins.
   */
  playwrightVersion(): string {
    const stamp = path.join(this.dir, 'build.json');
    if (existsSync(stamp)) {
      const pinned = (JSON.parse(readFileSync(stamp, 'utf8')) as { dependencies?: Record<string, string> }).dependencies?.[
        'playwright-core'
      ];
      if (pinned) return pinned;
    }
    return (createRequire(import.meta.url)('playwright-core/package.json') as { version: string }).version;
  }

  /** latestAssets (spec 02 §7): this server's release, with its runner package when built. */
  latestRelease(): { name: string; tag_name: string; assets: ReleaseAsset[] } {
    const current = this.runnerPackage(runnerTarballName(this.version));
    const assets: ReleaseAsset[] = current
      ? [
          {
            name: current.name,
            browser_download_url: `${this.publicUrl}${runnerDownloadPath(this.version)}`,
            content_type: current.contentType,
            size: current.size,
          },
        ]
      : [];
    return { name: `Rehearse ${this.version}`, tag_name: `v${this.version}`, assets };
  }
}
