import { adminCalls } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import type { InstanceAdminService } from './instance-admin.service.js';

/** Instance administration: the router already required a signed-in instance administrator. */
export function registerInstanceAdminRoutes(route: CallRoute, admin: InstanceAdminService): void {
  route(adminCalls.listUsers, async () => ({ status: true, users: await admin.listUsers() }));
  route(adminCalls.updateUser, async ({ caller, params, body }) => ({
    status: true,
    user: await admin.updateUser(caller.user, params.userId, body),
  }));
  route(adminCalls.clearSignInBlocks, async ({ caller, params }) => ({
    status: true,
    user: await admin.clearSignInBlocks(caller.user, params.userId),
  }));
  route(adminCalls.resetTwoFactor, async ({ caller, params }) => ({
    status: true,
    user: await admin.resetTwoFactor(caller.user, params.userId),
  }));
  route(adminCalls.listProjects, async () => ({ status: true, projects: await admin.listProjects() }));
  route(adminCalls.extendLicence, async ({ caller, params, body }) => ({
    status: true,
    project: await admin.extendLicence(caller.user, params.projectId, body.days),
  }));
  route(adminCalls.updateProject, async ({ caller, params, body }) => ({
    status: true,
    project: await admin.updateProject(caller.user, params.projectId, body),
  }));
  route(adminCalls.listWorkers, async () => ({ status: true, ...(await admin.workers()) }));
  route(adminCalls.createWorkerToken, async ({ caller, body }) => ({
    status: true,
    ...(await admin.createWorkerToken(caller.user, body.name)),
  }));
  route(adminCalls.deleteWorkerToken, async ({ caller, params }) => {
    await admin.deleteWorkerToken(caller.user, params.tokenId);
    return { status: true };
  });
  route(adminCalls.getSettings, async () => ({ status: true, ...(await admin.instanceSettings()) }));
  route(adminCalls.updateSettings, async ({ caller, body }) => ({
    status: true,
    ...(await admin.updateInstanceSettings(caller.user, body)),
  }));
  route(adminCalls.getSingleSignOn, async () => ({ status: true, sso: await admin.singleSignOn() }));
  route(adminCalls.updateSingleSignOn, async ({ caller, body }) => ({
    status: true,
    sso: await admin.updateSingleSignOn(caller.user, body),
  }));
  route(adminCalls.clearSingleSignOn, async ({ caller }) => ({ status: true, sso: await admin.clearSingleSignOn(caller.user) }));
  route(adminCalls.listActivity, async ({ query }) => ({ status: true, activity: await admin.activityLog(query.limit) }));
}
