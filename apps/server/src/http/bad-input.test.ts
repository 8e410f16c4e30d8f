import { authCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

describe.each(testBackends())('bad input on %s', (backend) => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    test = await startTestApp(backend);
    user = await signUp(test, { email: 'careful@acme.test' });
  });
  afterAll(async () => test?.close());

  const post = (url: string, payload: string | object, token?: string, contentType = 'application/json') =>
    test.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  async function projectRows(): Promise<number> {
    const [row] = await test.database.rows<{ n: number }>('select count(*)::int as n from projects');
    return row!.n;
  }

  it('answers malformed JSON with 400 and a sentence', async () => {
    const response = await post('/api/auth/CreateProject', '{"name": "half', user.token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: false, error: 'The request body is not valid JSON.' });
  });

  it('answers a 10 MB body with 413 before reading it all', async () => {
    const response = await post('/api/auth/CreateProject', { name: 'x'.repeat(10 * 1024 * 1024) }, user.token);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: false, error: 'The request body is too large.' });
  });

  it('answers a body that is not JSON with 415', async () => {
    const response = await post('/api/auth/login', 'email=a', undefined, 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(response.json().status).toBe(false);
  });

  it('names the missing field with the spec message', async () => {
    const cases: [string, object, string][] = [
      ['/api/auth/CreateProject', {}, 'Name cannot be empty'],
      ['/api/auth/CreateProject', { name: '   ' }, 'Name cannot be empty'],
      ['/api/auth/CreateProject', { name: 'ok', url: 'ftp://x' }, 'Please enter a valid URL'],
      ['/api/auth/createAccessKey', { projectId: user.projectId }, 'Token name cannot be empty'],
      ['/api/auth/createAccessKey', { name: ' ', projectId: user.projectId }, 'Token name cannot be empty'],
      ['/api/auth/signup', { email: 'not-an-email', password: 'longenough' }, 'Please enter a valid email address.'],
      [
        '/api/auth/signup',
        { email: 'a@b.co', password: 'short', firstname: 'A', lastname: 'B' },
        'Password must be at least 8 characters.',
      ],
    ];
    for (const [url, body, message] of cases) {
      const response = await post(url, body, user.token);
      expect([url, response.statusCode, response.json()]).toEqual([url, 400, { status: false, error: message }]);
    }
  });

  it('answers unknown and malformed project ids with 404 and 400', async () => {
    const unknown = await test.app.inject({
      method: 'GET',
      url: '/api/auth/getMembers?project_id=6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect([unknown.statusCode, unknown.json().error]).toEqual([404, 'Project not found.']);
    const malformed = await test.app.inject({
      method: 'GET',
      url: "/api/auth/getMembers?project_id=1'%20or%20'1'='1",
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect([malformed.statusCode, malformed.json().error]).toEqual([400, 'Invalid project id.']);
  });

  it('keeps SQL and HTML metacharacters in names as plain text', async () => {
    const name = `Robert'); DROP TABLE projects;-- <script>alert("x")</script>`;
    const created = await user.api.call(authCalls.createProject, { body: { name } });
    expect(created.project.name).toBe(name);
    const { projects } = await user.api.call(authCalls.getProjects);
    expect(projects.find((p) => p.id === created.project.id)?.name).toBe(name);
  });

  it('refuses half a surrogate pair in any string or key with 400, storing nothing; a whole pair is kept', async () => {
    const tokens = async () => (await test.database.rows<{ n: number }>('select count(*)::int as n from worker_tokens'))[0]!.n;
    const before = await tokens();
    // Sent as JSON text: the escape reaches the server as written, and JSON.parse makes it a lone surrogate.
    for (const payload of ['{"name":"runner \\ud800"}', '{"name":"\\udfff runner"}', '{"name":"ok","\\ud83d":1}']) {
      const response = await post('/api/admin/workers/tokens', payload, user.token);
      expect([payload, response.statusCode, response.json().error]).toEqual([
        payload,
        400,
        'Text must be valid Unicode: half of a surrogate pair (such as \\ud800) on its own cannot be stored.',
      ]);
    }
    expect(await tokens()).toBe(before);
    const whole = await post('/api/admin/workers/tokens', '{"name":"runner \\ud83d\\ude80"}', user.token);
    expect(whole.statusCode).toBe(200);
    expect(whole.json().workerToken.name).toBe('runner 🚀');
  });

  it('writes nothing when a project cannot be created', async () => {
    await test.services.users.update(user.user.id, { allowedProjectsCount: 0 });
    const before = await projectRows();
    const response = await post('/api/auth/CreateProject', { name: 'One too many' }, user.token);
    expect([response.statusCode, response.json().error]).toEqual([403, 'You have reached the number of projects you can create.']);
    expect(await projectRows()).toBe(before);
    const me = await user.api.call(authCalls.me);
    expect(me.user.customAttributes.allowedProjectsCount).toBe(0);
    await test.services.users.update(user.user.id, { allowedProjectsCount: 10 });
  });

  it('writes nothing when sign-up repeats an email', async () => {
    const before = await projectRows();
    const response = await post('/api/auth/signup', {
      email: 'CAREFUL@acme.test',
      password: 'another password',
      firstname: 'Again',
      lastname: 'Twice',
    });
    expect([response.statusCode, response.json().error]).toEqual([409, 'An account with this email already exists.']);
    expect(await projectRows()).toBe(before);
  });

  it('answers unknown API paths with a JSON 404 and every answer with a request id', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/nope', headers: { 'x-trace-id': 'trace-123' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: false, error: 'Not found.' });
    expect(response.headers['x-request-id']).toBe('trace-123');
  });

  it('rejects a forged or missing bearer token with 401', async () => {
    for (const authorization of [undefined, 'Bearer rhs_forged', 'Basic abc', 'Bearer rhk_forged']) {
      const response = await test.app.inject({
        method: 'GET',
        url: '/api/auth/getProjects',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().status).toBe(false);
    }
  });

  it('limits sign-in attempts per client and answers 429', async () => {
    const limited = await startTestApp(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'x@acme.test', password: 'whatever1' },
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) expect(response.json().error).toBe('Too many attempts. Please wait a minute and try again.');
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('keeps limiting sign-in when the client rotates X-Forwarded-For and no proxy is trusted', async () => {
    const limited = await startTestApp(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
          payload: { email: 'x@acme.test', password: 'whatever1' },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
