import { recorderCalls } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import type { LocalLaunchService } from './local-launch.service.js';
import type { RecorderService } from './recorder.service.js';

export function registerRecorderRoutes(route: CallRoute, recorder: RecorderService, launches: LocalLaunchService): void {
  route(recorderCalls.createConnection, async ({ caller, access, body }) => ({
    status: true,
    session: await recorder.create(caller, access, body),
  }));
  route(recorderCalls.activeSession, async ({ caller, access }) => ({ status: true, session: recorder.active(caller, access.project.id) }));
  route(recorderCalls.websocketUrl, async ({ caller, query }) => {
    const session = recorder.owned(caller, query.connectionId);
    return { status: true, socketPath: recorder.info(session).socketPath, connectionId: session.id };
  });
  route(recorderCalls.deleteConnection, async ({ caller, body }) => {
    await recorder.end(recorder.owned(caller, body.connectionName).id);
    return { status: true };
  });
  // The spec passes userId; a caller only ever learns their own count.
  route(recorderCalls.concurrentSessions, async ({ caller }) => ({ status: true, activeSessions: recorder.activeCount(caller.user.id) }));
  route(recorderCalls.mySessions, async ({ caller }) => ({ status: true, sessions: recorder.mine(caller) }));
  route(recorderCalls.checkReachable, async ({ body }) => ({
    status: true,
    reachable: true as const,
    ...(await recorder.checkReachable(body.url)),
  }));
  route(recorderCalls.localLaunch, async ({ caller, access, body }) => ({
    status: true,
    ...(await launches.launch(caller, access, body)),
  }));
  route(recorderCalls.publish, async ({ caller, access, body }) => ({ status: true, ...(await recorder.publish(caller, access, body)) }));
}
