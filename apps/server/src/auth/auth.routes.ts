import { authCalls, Messages } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import { clientOf } from '../http/client-identity.js';
import type { AccessKeysService } from './access-keys.service.js';
import type { MembersService } from './members.service.js';
import type { SessionService } from './session.service.js';
import type { SingleSignOn } from './single-sign-on.js';
import type { TwoFactorService } from './two-factor.service.js';
import { toUserDto, type ProjectsService } from './projects.service.js';
import { roleAllows } from '@rehearse/contract';

export interface AuthRouteServices {
  sessions: SessionService;
  projects: ProjectsService;
  members: MembersService;
  accessKeys: AccessKeysService;
  sso: SingleSignOn;
  twoFactor: TwoFactorService;
}

/**
 * The auth service's calls: thin adapters from the contract to the services. The auth calls that
 * also reach a layer above auth are registered there: creating and deleting a project's workspace
 * in workspace.routes.ts, the client log in storage.routes.ts.
 */
export function registerAuthRoutes(route: CallRoute, s: AuthRouteServices): void {
  route(authCalls.signup, async ({ body, request }) => {
    const { token, projectId } = await s.sessions.signup(body, clientOf(request));
    return { status: true, token, isNewUser: true, project: { _id: projectId } };
  });

  route(authCalls.login, async ({ body, request }) => ({
    status: true,
    token: await s.sessions.login(body.email, body.password, clientOf(request), body.code),
  }));

  route(authCalls.ssoConfig, async () => ({ status: true, ...(await s.sso.config()) }));

  route(authCalls.ssoStart, async ({ query, reply }) => {
    const { location, setCookie } = await s.sso.start(query.callbackUrl);
    return reply.header('set-cookie', setCookie).header('cache-control', 'no-store').redirect(location);
  });

  route(authCalls.ssoCallback, async ({ query, request, reply }) => {
    const { location, setCookie } = await s.sso.finish(query, request.headers.cookie);
    return reply.header('set-cookie', setCookie).header('cache-control', 'no-store').redirect(location);
  });

  route(authCalls.twoFactorStatus, async ({ caller }) => ({ status: true, ...s.twoFactor.status(caller.user) }));

  route(authCalls.twoFactorBegin, async ({ caller }) => ({ status: true, ...(await s.twoFactor.begin(caller.user)) }));

  route(authCalls.twoFactorEnable, async ({ caller, body }) => ({
    status: true,
    recoveryCodes: await s.twoFactor.enable(caller.user, body.code),
  }));

  route(authCalls.twoFactorDisable, async ({ caller, body }) => {
    await s.twoFactor.disable(caller.user, body.code);
    return { status: true };
  });

  route(authCalls.logout, async ({ caller }) => {
    await s.sessions.logout(caller);
    return { status: true };
  });

  route(authCalls.me, async ({ caller }) => ({ status: true, user: toUserDto(caller.user) }));

  route(authCalls.getProjects, async ({ caller }) => ({
    status: true,
    projects: await s.projects.listForUser(caller.user),
  }));

  route(authCalls.createProject, async ({ caller, body }) => ({
    status: true,
    project: await s.projects.create(caller.user, body),
    message: Messages.projectCreated,
  }));

  route(authCalls.getLastActiveProject, async ({ caller }) => ({
    status: true,
    project_id: await s.projects.lastActiveProjectId(caller.user),
  }));

  route(authCalls.updateLastActiveProjectId, async ({ caller, access }) => {
    await s.projects.setLastActive(caller.user, access.project.id);
    return { status: true };
  });

  route(authCalls.getMembers, async ({ access }) => ({ status: true, members: await s.members.list(access.project.id) }));

  route(authCalls.createInvitation, async ({ caller, access, body }) => ({
    status: true,
    invitations: await s.members.invite(caller.user, access, body.sent_to_email_list),
  }));

  route(authCalls.verifyInvitation, async ({ caller, body }) => ({
    status: true,
    invitation: await s.members.verify(caller.user, body),
  }));

  route(authCalls.addMember, async ({ caller, body }) => {
    const projectId = await s.members.accept(caller.user, body.id);
    await s.projects.setLastActive(caller.user, projectId);
    return { status: true, project_id: projectId };
  });

  route(authCalls.declineInvitation, async ({ caller, params }) => {
    await s.members.decline(caller.user, params.id);
    return { status: true, message: Messages.invitationDeclined };
  });

  route(authCalls.removeMemberOrInvitation, async ({ caller, access, body }) => {
    await s.members.remove(caller.user, access, body);
    return { status: true };
  });

  route(authCalls.checkRole, async ({ access, body }) => ({
    status: true,
    allowed: roleAllows(access.role, body.action),
    role: access.role,
  }));

  route(authCalls.isProjectExpired, async ({ access }) => ({
    status: !access.isExpired,
    is_expired: access.isExpired,
    time_left: { days: s.projects.daysLeft(access.project) },
  }));

  route(authCalls.getAccessKeys, async ({ access }) => ({
    status: true,
    accessKeys: await s.accessKeys.list(access.project.id),
  }));

  route(authCalls.createAccessKey, async ({ caller, access, body }) => ({
    status: true,
    accessKey: await s.accessKeys.createForCaller(caller, access, body.name, body.expiresAt),
  }));

  route(authCalls.deleteAccessKey, async ({ caller, access, body }) => {
    await s.accessKeys.revoke(caller, access, body.id);
    return { status: true };
  });
}
