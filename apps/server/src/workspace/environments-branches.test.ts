import { authCalls, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

describe.each(testBackends())('environments and branches on %s', (backend) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(backend);
  });
  afterAll(async () => test?.close());

  it('gives a new project a default environment pointing at the demo shop, and commits each change as its author', async () => {
    const user = await signUp(test, { email: 'envs@acme.test', firstname: 'Eve' });
    const projectId = user.projectId;
    const listed = await user.api.call(ws.getEnvList, { body: { projectId } });
    expect(listed.allEnv).toEqual([{ name: 'default.json', data: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' } }]);
    expect(listed.lastActiveEnv).toBe('default.json');

    await user.api.call(ws.pushEnv, { body: { projectId, name: 'staging', data: { baseUrl: 'https://staging.example.com' } } });
    const edited = await user.api.call(ws.editEnv, {
      body: { projectId, name: 'staging', newName: 'qa', newData: { baseUrl: 'https://qa.example.com' } },
    });
    expect(edited.warning).toBe('Renaming environments makes test data inaccessible.');
    expect(edited.env).toEqual({ name: 'qa.json', data: { name: 'qa', baseUrl: 'https://qa.example.com' } });

    const versions = await user.api.call(ws.getStableVersions, { query: { projectId } });
    expect(versions.versions.map((v) => v.message)).toEqual([
      '[app:env.rename] staging -> qa',
      '[app:env.create] staging',
      '[app:workspace.create] Default',
    ]);
    expect(versions.versions[0]!.author).toBe('Eve Tester');

    await user.api.call(ws.updateLastActiveWorkspace, { body: { projectId, env: 'qa.json' } });
    expect((await user.api.call(ws.getEnvList, { body: { projectId } })).lastActiveEnv).toBe('qa.json');
    await user.api.call(ws.deleteEnv, { body: { projectId, name: 'qa' } });
    // Deleting the current environment selects the first remaining one.
    expect((await user.api.call(ws.getEnvList, { body: { projectId } })).lastActiveEnv).toBe('default.json');
  });

  it('refuses bad names and URLs with the spec messages and leaves the workspace as it was', async () => {
    const user = await signUp(test);
    const projectId = user.projectId;
    const before = (await user.api.call(ws.getStableVersions, { query: { projectId } })).versions[0]!.commit;
    const push = (name: string, baseUrl: string) => failure(user.api.call(ws.pushEnv, { body: { projectId, name, data: { baseUrl } } }));
    expect((await push('   ', 'https://x.io')).message).toBe('Empty Name');
    expect((await push('x'.repeat(33), 'https://x.io')).message).toBe('Environment name cannot be more than 32 characters.');
    expect((await push('a/b', 'https://x.io')).message).toBe(
      'Environment name cannot contain the following characters: / . * : ? " < > | \\',
    );
    expect((await push('DEFAULT', 'https://x.io')).message).toBe('Environment cannot have the same case-insensitive name.');
    expect((await push('ok', '')).message).toBe('URL cannot be empty');
    expect((await push('ok', 'http://a b')).message).toBe(
      'URL cannot contain the following characters: space, tab, newline, carriage return, form feed, vertical tab, < > " { } | \\ ^ `',
    );
    expect((await push('ok', 'ftp://x.io')).message).toBe('URL must begin with http:// or https://');
    expect((await push('ok', 'http://x.io:1:2')).message).toBe('Incorrect URL structure, only one port is allowed.');
    expect((await push('ok', 'http://x.io:99999')).message).toBe('Invalid URL: Port number cannot be greater than 65535');
    const after = (await user.api.call(ws.getStableVersions, { query: { projectId } })).versions[0]!.commit;
    expect(after).toBe(before);
    const missing = await failure(user.api.call(ws.deleteEnv, { body: { projectId, name: 'nope' } }));
    expect([missing.httpStatus, missing.message]).toEqual([404, 'Environment not found.']);
  });

  it('keeps branches to private-repository projects and protects main and the current branch', async () => {
    const user = await signUp(test);
    const projectId = user.projectId;
    const refused = await failure(user.api.call(ws.createNewBranch, { body: { projectId, sourceBranch: 'main', newBranch: 'x' } }));
    expect(refused.message).toBe('Branches are available only for projects with a private repository.');
    expect((await failure(user.api.call(ws.getEnvList, { body: { projectId, branch: 'other' } }))).message).toBe(
      'Branches are available only for projects with a private repository.',
    );

    await test.database.execute(`update projects set private_repo = true where id = '${projectId}'`);
    expect((await failure(user.api.call(ws.createNewBranch, { body: { projectId, sourceBranch: ' ', newBranch: 'x' } }))).message).toBe(
      'Please fill in all fields.',
    );
    expect(
      (await user.api.call(ws.createNewBranch, { body: { projectId, sourceBranch: 'main', newBranch: 'feature/login' } })).branch,
    ).toBe('feature/login');
    const branches = await user.api.call(ws.getAllBranches, { body: { projectId } });
    expect(branches).toMatchObject({ branches: ['feature/login', 'main'], lastActiveBranch: 'feature/login' });

    // Work on the branch does not show on main.
    await user.api.call(ws.pushEnv, {
      body: { projectId, branch: 'feature/login', name: 'branch-only', data: { baseUrl: 'https://b.example.com' } },
    });
    const onMain = await user.api.call(ws.getEnvList, { body: { projectId, branch: 'main' } });
    expect(onMain.allEnv.map((e) => e.name)).toEqual(['default.json']);

    // A member of another project cannot delete this project's branch, nor learn more than that.
    const stranger = await signUp(test);
    await user.api.call(ws.createNewBranch, { body: { projectId, sourceBranch: 'main', newBranch: 'feature/other' } });
    await user.api.call(ws.updateLastActiveWorkspace, { body: { projectId, branch: 'feature/login' } });
    const strangerDelete = await failure(stranger.api.call(ws.deleteBranch, { body: { projectId, branch: 'feature/other' } }));
    expect([403, 404]).toContain(strangerDelete.httpStatus);
    expect((await user.api.call(ws.getAllBranches, { body: { projectId } })).branches).toContain('feature/other');
    await user.api.call(ws.deleteBranch, { body: { projectId, branch: 'feature/other' } });

    expect((await failure(user.api.call(ws.deleteBranch, { body: { projectId, branch: 'feature/login' } }))).message).toBe(
      'The current branch cannot be deleted.',
    );
    expect((await failure(user.api.call(ws.deleteBranch, { body: { projectId, branch: 'main' } }))).message).toBe(
      'The main branch cannot be deleted.',
    );
    await user.api.call(ws.updateLastActiveWorkspace, { body: { projectId, branch: 'main' } });
    await user.api.call(ws.deleteBranch, { body: { projectId, branch: 'feature/login' } });
    expect((await user.api.call(ws.getAllBranches, { body: { projectId } })).branches).toEqual(['main']);
    expect((await failure(user.api.call(ws.getEnvList, { body: { projectId, branch: '../etc' } }))).message).toBe('Invalid branch name.');
  });

  it('lands 20 parallel writes to one project as 20 commits with nothing lost', async () => {
    const user = await signUp(test);
    const projectId = user.projectId;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        user.api.call(ws.pushEnv, { body: { projectId, name: `parallel-${i}`, data: { baseUrl: `https://p${i}.example.com` } } }),
      ),
    );
    const { allEnv } = await user.api.call(ws.getEnvList, { body: { projectId } });
    expect(allEnv).toHaveLength(21);
    const { versions } = await user.api.call(ws.getStableVersions, { query: { projectId, limit: 50 } });
    expect(versions.filter((v) => v.message.startsWith('[app:env.create] parallel-'))).toHaveLength(20);
  });

  it('creates the workspace through create-workspace and removes it with the project', async () => {
    const user = await signUp(test);
    const { project } = await user.api.call(authCalls.createProject, { body: { name: 'Fresh', url: 'https://fresh.example.com' } });
    expect((await user.api.call(authCalls.createWorkspace, { body: { projectId: project.id } })).created).toBe(true);
    expect((await user.api.call(authCalls.createWorkspace, { body: { projectId: project.id } })).created).toBe(false);
    const { allEnv } = await user.api.call(ws.getEnvList, { body: { projectId: project.id } });
    expect(allEnv[0]?.data.baseUrl).toBe('https://fresh.example.com');
    expect(test.services.workspaces.store.exists(project.id)).toBe(true);
    await user.api.call(authCalls.deleteProject, { body: { project_id: project.id } });
    expect(test.services.workspaces.store.exists(project.id)).toBe(false);
  });
});
