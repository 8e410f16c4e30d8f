import { z } from 'zod';
import { defineCall } from './call.js';

export const StorageEventName = z.enum(['create_project', 'click_start_recording', 'download_editor']);
export type StorageEventName = z.infer<typeof StorageEventName>;

/** Health and the storage service's event call (spec 02 §7 "Storage"). */
export const systemCalls = {
  health: defineCall({
    method: 'GET',
    path: '/api/health',
    summary: 'Liveness and database reachability',
    access: 'public',
    response: z.object({
      status: z.literal(true),
      version: z.string(),
      database: z.enum(['pglite', 'postgres']),
      uptimeSeconds: z.number(),
      /**
       * `local-single-user`: started on a machine that cannot sandbox jobs (a laptop without
       * bubblewrap), so it listens on 127.0.0.1 only, admits one user and runs jobs unsandboxed.
       */
      install: z.enum(['server', 'local-single-user']),
    }),
  }),
  storageEvent: defineCall({
    method: 'POST',
    path: '/api/storage/event',
    summary: 'Record a product event (the web app ignores failures)',
    access: 'user',
    body: z.object({ event: StorageEventName, project_id: z.uuid().optional() }),
    response: z.object({ status: z.literal(true) }),
  }),
} as const;
