import { authCalls, Headers } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from './index.js';

function recordingFetch(status: number, answer: unknown) {
  const requests: { url: string; init: RequestInit }[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    requests.push({ url: input instanceof Request ? input.url : input.toString(), init: init ?? {} });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  };
  return { requests, fetchImpl };
}

describe('api-client', () => {
  it('sends trace, session, project-id and bearer headers on every call', async () => {
    const { requests, fetchImpl } = recordingFetch(200, { status: true, members: [] });
    const client = createApiClient({
      baseUrl: 'http://api.test/',
      fetch: fetchImpl,
      getToken: () => 'rhs_token',
      getProjectId: () => 'p-1',
      sessionId: 'tab-1',
    });
    await client.call(authCalls.getMembers, { query: { project_id: 'p-1' } });
    await client.call(authCalls.getMembers, { query: { project_id: 'p-1' } });
    const [first, second] = requests.map((r) => r.init.headers as Record<string, string>);
    expect(requests[0]!.url).toBe('http://api.test/api/auth/getMembers?project_id=p-1');
    expect(first).toMatchObject({ [Headers.session]: 'tab-1', [Headers.projectId]: 'p-1', authorization: 'Bearer rhs_token' });
    expect(first![Headers.trace]).toBeTruthy();
    expect(first![Headers.trace]).not.toBe(second![Headers.trace]);
  });

  it('turns {status:false, error} into an ApiError and reports 401s', async () => {
    const { fetchImpl } = recordingFetch(401, { status: false, error: 'Your session has expired. Please login again.' });
    const seen: ApiError[] = [];
    const client = createApiClient({ fetch: fetchImpl, onUnauthorized: (error) => seen.push(error) });
    const error = await client.call(authCalls.me).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Your session has expired. Please login again.');
    expect(seen).toHaveLength(1);
  });

  it('sends JSON bodies with the call method and path parameters', async () => {
    const { requests, fetchImpl } = recordingFetch(200, { status: true, message: 'ok' });
    const client = createApiClient({ fetch: fetchImpl });
    await client.call(authCalls.declineInvitation, { params: { id: 'abc' } });
    await client.call(authCalls.createProject, { body: { name: 'Shop' } });
    expect(requests[0]).toMatchObject({ url: '/api/auth/invitations/abc', init: { method: 'DELETE' } });
    expect(requests[1]!.init.body).toBe('{"name":"Shop"}');
  });
});

describe('a call given an AbortSignal', () => {
  it('is aborted with it: a request still waiting ends with the signal’s reason, and a call without one runs as before', async () => {
    const seen: (AbortSignal | null | undefined)[] = [];
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        seen.push(init?.signal);
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
      });
    const client = createApiClient({ baseUrl: 'http://api.test', fetch: hanging });
    const controller = new AbortController();
    const call = client.call(authCalls.getMembers, { query: { project_id: 'p-1' }, signal: controller.signal });
    controller.abort(new Error('the page was closed'));
    await expect(call).rejects.toThrow('the page was closed');
    expect(seen[0]).toBe(controller.signal);
    const { requests, fetchImpl } = recordingFetch(200, { status: true, members: [] });
    await createApiClient({ baseUrl: 'http://api.test', fetch: fetchImpl }).call(authCalls.getMembers, { query: { project_id: 'p-1' } });
    expect(requests[0]!.init.signal).toBeUndefined();
  });
});
