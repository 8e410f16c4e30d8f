import { authCalls, systemCalls } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import type { ActivityService } from './activity.service.js';

/** The activity log's calls: the web app's log entries and product events. */
export function registerStorageRoutes(route: CallRoute, activity: ActivityService): void {
  route(authCalls.log, async ({ caller, body }) => ({
    status: true,
    stored: await activity.storeLog(caller.user.id, body.logs),
  }));
  route(systemCalls.storageEvent, async ({ caller, body }) => {
    await activity.recordEvent(caller.user.id, body.event, body.project_id);
    return { status: true };
  });
}
