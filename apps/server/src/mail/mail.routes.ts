import { mailCalls } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import type { MailUsersService } from './mail-users.service.js';

export function registerMailRoutes(route: CallRoute, users: MailUsersService): void {
  route(mailCalls.addUser, async ({ access, body }) => ({ status: true, user: await users.add(access.project.id, body) }));
  route(mailCalls.getUsers, async ({ access }) => ({ status: true, users: await users.list(access.project.id) }));
  route(mailCalls.updateUser, async ({ access, body }) => ({
    status: true,
    user: await users.update(access.project.id, body.prev_username, body),
  }));
  route(mailCalls.deleteUser, async ({ access, body }) => {
    await users.delete(access.project.id, body.username);
    return { status: true };
  });
  route(mailCalls.generateTotp, async ({ access, body }) => ({
    status: true,
    ...(await users.totp(access.project.id, body.username)),
  }));
}
