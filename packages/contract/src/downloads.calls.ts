import { z } from 'zod';
import { defineCall } from './call.js';

/** The runner package's file name for a version; `latest` names the server's own version. */
export const runnerTarballName = (version: string) => `rehearse-runner-${version}.tgz`;

/** Where a server serves its runner package: `${server}${runnerDownloadPath(version)}`. */
export const runnerDownloadPath = (version: string) => `/downloads/${runnerTarballName(version)}`;

/** A downloadable asset, in the shape of a GitHub release asset (spec 02 §7 latestAssets). */
export const ReleaseAsset = z.object({
  name: z.string(),
  browser_download_url: z.string(),
  content_type: z.string(),
  size: z.number().int().nonnegative(),
});
export type ReleaseAsset = z.infer<typeof ReleaseAsset>;

/**
 * The client downloads a server offers (issue 18): the runner package (`rehearse` CLI, recorder
 * and cucumber-js runtime) that speaks exactly this server's calls. Public: it is what a CI job
 * or a tester's machine installs before it has anything but the server's address.
 */
export const downloadCalls = {
  runnerPackage: defineCall({
    method: 'GET',
    path: '/downloads/:file',
    summary: "The runner package tarball: rehearse-runner-<version>.tgz, or rehearse-runner-latest.tgz for this server's version",
    access: 'public',
    params: z.object({ file: z.string().max(200) }),
    /** A gzipped tar, not JSON. */
    response: z.unknown(),
    example: { params: { file: 'rehearse-runner-latest.tgz' } },
  }),
  latestAssets: defineCall({
    method: 'GET',
    path: '/api/workspace/latestAssets',
    summary: 'The latest release of the client downloads (spec 02 §7): name, tag and assets with their download URLs',
    access: 'public',
    response: z.object({
      status: z.literal(true),
      name: z.string(),
      tag_name: z.string(),
      assets: z.array(ReleaseAsset),
    }),
  }),
} as const;
