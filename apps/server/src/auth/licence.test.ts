import { ApiError } from '@rehearse/api-client';
import { authCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../admin.js';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

describe.each(testBackends())('licence on %s', (backend) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(backend);
  });
  afterAll(async () => test?.close());

  it('starts a project on a 14-day trial that refuses invites outside the allowed domains', async () => {
    const user = await signUp(test, { email: 'trial@acme.test' });
    const { projects } = await user.api.call(authCalls.getProjects);
    expect(projects[0]).toMatchObject({ is_expired: false, allowInvite: false, maxExecutionThreads: 2 });
    const expires = new Date(projects[0]!.expiresAt).getTime() - new Date(projects[0]!.createdAt).getTime();
    expect(Math.round(expires / 86_400_000)).toBe(14);
  });

  it('refuses writes on an expired project with a clear 403, keeps reads, and reopens after extend-licence', async () => {
    const user = await signUp(test, { email: 'expired@acme.test' });
    const projectId = user.projectId;
    await test.database.execute(`update projects set licence_expires_at = now() - interval '1 day' where id = '${projectId}'`);
    const expired = await user.api.call(authCalls.isProjectExpired, { body: { projectId } });
    expect(expired).toEqual({ status: false, is_expired: true, time_left: { days: 0 } });

    const refusal = await user.api
      .call(authCalls.createAccessKey, { body: { name: 'late', projectId } })
      .catch((error: unknown) => error as ApiError);
    expect(refusal).toBeInstanceOf(ApiError);
    expect([(refusal as ApiError).httpStatus, (refusal as ApiError).message]).toEqual([
      403,
      "This project's license has expired. Ask your administrator to extend it.",
    ]);
    await expect(
      user.api.call(authCalls.createInvitation, { body: { project_id: projectId, sent_to_email_list: ['x@acme.test'] } }),
    ).rejects.toThrow("This project's license has expired. Ask your administrator to extend it.");
    // Reading stays possible so the team can see what it has.
    expect((await user.api.call(authCalls.getMembers, { query: { project_id: projectId } })).members).toHaveLength(1);

    const line = await runAdminCommand(['extend-licence', projectId, '30'], test.database);
    expect(line).toContain('now runs until');
    const renewed = await user.api.call(authCalls.isProjectExpired, { body: { projectId } });
    expect(renewed.status).toBe(true);
    expect(renewed.time_left.days).toBe(29);
    const { projects } = await user.api.call(authCalls.getProjects);
    expect(projects.find((p) => p.id === projectId)?.allowInvite).toBe(true);
    // A bought licence lifts the trial's domain rule.
    const sent = await user.api.call(authCalls.createInvitation, {
      body: { project_id: projectId, sent_to_email_list: ['partner@elsewhere.test'] },
    });
    expect(sent.invitations).toHaveLength(1);
  });

  it('sets threads and allowances through admin commands and refuses bad arguments', async () => {
    const user = await signUp(test, { email: 'threads@acme.test' });
    await runAdminCommand(['set-threads', user.projectId, '6'], test.database);
    const { projects } = await user.api.call(authCalls.getProjects);
    expect(projects[0]?.maxExecutionThreads).toBe(6);
    await runAdminCommand(['set-allowed-projects', 'threads@acme.test', '0'], test.database);
    await expect(user.api.call(authCalls.createProject, { body: { name: 'No more' } })).rejects.toThrow(
      'You have reached the number of projects you can create.',
    );
    await expect(runAdminCommand(['set-threads', user.projectId, '-1'], test.database)).rejects.toThrow('whole number');
    await expect(runAdminCommand(['extend-licence', 'not-a-project', '3'], test.database)).rejects.toThrow('No project');
    await expect(runAdminCommand(['launch-rockets'], test.database)).rejects.toThrow('Unknown command');
    await runAdminCommand(['set-private-repo', user.projectId, 'on'], test.database);
    const withRepo = await user.api.call(authCalls.getProjects);
    expect(withRepo.projects[0]).toMatchObject({ privateRepo: true, configuredPrivateRepo: false });
  });

  it('lets only an admin who may delete projects delete one', async () => {
    const admin = await signUp(test, { email: 'deleter@acme.test' });
    const { project } = await admin.api.call(authCalls.createProject, { body: { name: 'Doomed' } });
    await runAdminCommand(['allow-delete-projects', 'deleter@acme.test', 'no'], test.database);
    await expect(admin.api.call(authCalls.deleteProject, { body: { project_id: project.id } })).rejects.toThrow(
      'You do not have permission to delete this project',
    );
    await runAdminCommand(['allow-delete-projects', 'deleter@acme.test', 'yes'], test.database);
    await admin.api.call(authCalls.deleteProject, { body: { project_id: project.id } });
    const { projects } = await admin.api.call(authCalls.getProjects);
    expect(projects.map((p) => p.id)).not.toContain(project.id);
  });
});
