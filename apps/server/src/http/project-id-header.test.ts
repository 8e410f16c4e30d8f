import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

/**
 * Spec 02 §7: "Headers also include trace, session and project-id", and calls such as
 * project/getDetails {days, page, limit, …} and project/dashboardDetails carry no project id of
 * their own. A client written to the spec names its project in that header only.
 */
describe.each(testBackends())('the project-id header on %s', (backend) => {
  let test: TestApp;
  let ada: Awaited<ReturnType<typeof signUp>>;
  let mallory: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    test = await startTestApp(backend);
    ada = await signUp(test, { email: 'ada@acme.test' });
    mallory = await signUp(test, { email: 'mallory@evil.test' });
  });
  afterAll(async () => test?.close());

  const call = (method: 'GET' | 'POST', url: string, token: string, headers: Record<string, string>, payload?: object) =>
    test.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload } : {}),
    });

  it('names the project of a call whose body or query has no project id', async () => {
    const list = await call(
      'POST',
      '/api/runs/project/getDetails',
      ada.token,
      { 'project-id': ada.projectId },
      { days: 7, page: 0, limit: 10 },
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ status: true, projectSummary: { report: [], stats: { total: 0 } } });
    const dashboard = await call('GET', '/api/runs/project/dashboardDetails', ada.token, { 'x-project-id': ada.projectId });
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.json()).toMatchObject({ status: true, projectSummary: { runsAndScenarios: { runs: 0 } } });
  });

  it('is authorized like a project id in the body: another member’s project is a 403', async () => {
    const response = await call('POST', '/api/runs/project/getDetails', mallory.token, { 'project-id': ada.projectId }, { days: 7 });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ status: false, error: 'You do not have access to this project.' });
  });

  it('gives way to a project id the body names, and without either the call is refused with a sentence', async () => {
    const named = await call(
      'POST',
      '/api/runs/project/getDetails',
      mallory.token,
      { 'project-id': ada.projectId },
      { projectId: mallory.projectId, days: 7 },
    );
    expect(named.statusCode).toBe(200);
    const neither = await call('POST', '/api/runs/project/getDetails', ada.token, {}, { days: 7 });
    expect(neither.statusCode).toBe(400);
    expect(neither.json()).toEqual({ status: false, error: 'Invalid project id.' });
    const garbage = await call('POST', '/api/runs/project/getDetails', ada.token, { 'project-id': 'not-a-uuid' }, { days: 7 });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toEqual({ status: false, error: 'Invalid project id.' });
  });
});
