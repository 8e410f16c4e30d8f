import { createReadStream } from 'node:fs';
import { downloadCalls as calls, Messages } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import { notFound } from '../http/errors.js';
import type { DownloadsService } from './downloads.service.js';

export function registerDownloadRoutes(route: CallRoute, downloads: DownloadsService): void {
  route(calls.runnerPackage, async ({ params, reply }) => {
    const file = downloads.runnerPackage(params.file);
    if (!file) throw notFound(downloads.hasCurrentPackage() ? Messages.runnerVersionUnknown : Messages.runnerNotBuilt);
    return (
      reply
        .type(file.contentType)
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        // A rebuild keeps the version (and latest moves with the server): npm must ask again each time.
        .header('cache-control', 'no-cache')
        .send(createReadStream(file.path))
    );
  });
  route(calls.latestAssets, async () => ({ status: true, ...downloads.latestRelease() }));
}
