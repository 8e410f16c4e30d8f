import { z } from 'zod';
import { defineCall, EXAMPLE_PROJECT, Ok } from './call.js';
import { Messages } from './messages.js';
import { ProjectId } from './validation.js';

/** A mail/authenticator user as the web app sees it: the password and secret key never leave the server. */
export const MailUser = z.object({
  username: z.string(),
  password: z.string(),
  secretKey: z.string().nullable(),
  hasSecretKey: z.boolean(),
  updatedAt: z.string(),
});
export type MailUser = z.infer<typeof MailUser>;

const credentials = {
  username: z.string({ error: Messages.mailUserFieldsMissing }).trim().min(1, Messages.mailUserFieldsMissing).max(254),
  password: z.string({ error: Messages.mailUserFieldsMissing }).trim().min(1, Messages.mailUserFieldsMissing).max(1000),
  secretKey: z.string().max(256).optional(),
};

/** Mail / authenticator users (spec 02 §7 "Storage, mail and remote recorder"). */
export const mailCalls = {
  addUser: defineCall({
    method: 'POST',
    path: '/api/mail/add-user',
    summary: 'Add a user a scenario can sign in as, with an optional TOTP secret',
    access: 'project',
    project: { from: 'body', field: 'project_id', write: true },
    body: z.object({ project_id: ProjectId, ...credentials }),
    response: Ok.extend({ user: MailUser }),
    example: { body: { project_id: EXAMPLE_PROJECT, username: 'qa@example.com', password: 'pw' } },
  }),
  getUsers: defineCall({
    method: 'GET',
    path: '/api/mail/get-users',
    summary: 'The project’s mail users, passwords masked',
    access: 'project',
    project: { from: 'query', field: 'project_id' },
    query: z.object({ project_id: ProjectId }),
    response: Ok.extend({ users: z.array(MailUser) }),
    example: { query: { project_id: EXAMPLE_PROJECT } },
  }),
  updateUser: defineCall({
    method: 'PUT',
    path: '/api/mail/update-user',
    summary: 'Change a mail user; a masked password or key keeps the stored one',
    access: 'project',
    project: { from: 'body', field: 'project_id', write: true },
    body: z.object({ project_id: ProjectId, prev_username: z.string().trim().min(1).max(254), ...credentials }),
    response: Ok.extend({ user: MailUser }),
    example: {
      body: { project_id: EXAMPLE_PROJECT, prev_username: 'missing@example.com', username: 'x@example.com', password: 'pw' },
    },
  }),
  deleteUser: defineCall({
    method: 'DELETE',
    path: '/api/mail/delete-user',
    summary: 'Delete a mail user',
    access: 'project',
    project: { from: 'body', field: 'project_id', write: true },
    body: z.object({ project_id: ProjectId, username: z.string().trim().min(1).max(254) }),
    response: Ok,
    example: { body: { project_id: EXAMPLE_PROJECT, username: 'missing@example.com' } },
  }),
  generateTotp: defineCall({
    method: 'POST',
    path: '/api/mail/generate-totp',
    summary: 'The current TOTP code of a mail user',
    access: 'project',
    project: { from: 'body', field: 'project_id' },
    body: z.object({ project_id: ProjectId, username: z.string().trim().min(1).max(254) }),
    response: Ok.extend({ token: z.string(), secondsLeft: z.number().int() }),
    example: { body: { project_id: EXAMPLE_PROJECT, username: 'missing@example.com' } },
  }),
} as const;
