import { systemCalls } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import type { ActivityService } from './activity.service.js';

export function registerStorageRoutes(route: CallRoute, activity: ActivityService): void {
  route(systemCalls.storageEvent, async ({ caller, body }) => {
    await activity.recordEvent(caller.user.id, body.event, body.project_id);
    return { status: true };
  });
}
