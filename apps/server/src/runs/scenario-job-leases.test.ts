import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

describe.each(testBackends())('"Run scenario" leases when a server starts (%s)', (backend) => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    test = await startTestApp(backend, { WORKER_LEASE_SECONDS: '5' });
    user = await signUp(test);
  });
  afterAll(async () => test?.close());

  /** A job some server is running, whose lease was last renewed at `heartbeat` (SQL). */
  async function runningJob(owner: string, heartbeat: string): Promise<string> {
    const [row] = await test.database.rows<{ id: string }>(`insert into scenario_jobs
        (project_id, user_id, branch, feature_name, scenario_name, environment, state, started_at, owner, heartbeat_at)
        values ('${user.projectId}', '${user.user.id}', 'main', 'plan', 'Alpha', 'default', 'running', now() - interval '1 hour', '${owner}', ${heartbeat})
        returning id`);
    return row!.id;
  }
  const stateOf = async (id: string) =>
    (await test.database.rows<{ state: string; message: string | null }>(`select state, message from scenario_jobs where id = '${id}'`))[0];

  it('ends only jobs whose lease lapsed, or that predate leases, and leaves live ones running', async () => {
    const live = await runningJob('other:1:aaaa', 'now()');
    const lapsed = await runningJob('dead:2:bbbb', "now() - interval '6 seconds'");
    const legacy = await runningJob('old', 'null');
    await test.services.jobs.recover();
    expect(await stateOf(live)).toEqual({ state: 'running', message: null });
    expect(await stateOf(lapsed)).toEqual({
      state: 'error',
      message: 'The server restarted while this scenario was running. Please run it again.',
    });
    expect(await stateOf(legacy)).toEqual({
      state: 'error',
      message: 'The server restarted while this scenario was running. Please run it again.',
    });
  });

  it('ends every running job when asked to (PGlite: no other process can be running them)', async () => {
    const live = await runningJob('previous-process:3:cccc', 'now()');
    await test.services.jobs.recover(true);
    expect(await stateOf(live)).toEqual({
      state: 'error',
      message: 'The server restarted while this scenario was running. Please run it again.',
    });
  });
});
