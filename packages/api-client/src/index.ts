import { buildPath, Headers, type CallDefinition, type CallInput, type CallResponse } from '@rehearse/contract';

export interface ApiClientOptions {
  /** Origin of the API server, e.g. `http://localhost:4000`; empty for same-origin calls from the web app. */
  baseUrl?: string;
  /** Session token or access key, sent as `Authorization: Bearer`. */
  getToken?: () => string | null | undefined;
  /** Project the caller works in; sent as the project-id header on every call. */
  getProjectId?: () => string | null | undefined;
  /** Identifies this browser tab or CLI process across calls. */
  sessionId?: string;
  /** Called on every 401, so the web app can show "Session Expired". */
  onUnauthorized?: (error: ApiError) => void;
  fetch?: typeof fetch;
}

/** A call that answered with `{status:false, error}` or a non-2xx status. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly traceId: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Args<C extends CallDefinition> = {
  [K in keyof CallInput<C> as CallInput<C>[K] extends undefined ? never : K]: CallInput<C>[K];
};

/** Random id for the trace header; crypto.randomUUID exists in browsers (secure contexts) and Node. */
function newId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}

/** What a caller may add to any call: `signal` aborts it (a deadline, a closed page), as `fetch` does. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface ApiClient {
  call<C extends CallDefinition>(
    definition: C,
    ...args: keyof Args<C> extends never ? [input?: Partial<Args<C>> & CallOptions] : [input: Args<C> & CallOptions]
  ): Promise<CallResponse<C>>;
  readonly sessionId: string;
}

/** Typed client over the contract: every call of web, CLI and e2e tests goes through here. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const sessionId = options.sessionId ?? newId();
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');

  async function call<C extends CallDefinition>(
    definition: C,
    input?: Partial<Record<'params' | 'query' | 'body', unknown>> & CallOptions,
  ): Promise<CallResponse<C>> {
    const traceId = newId();
    const path = buildPath(definition.path, input?.params as Record<string, string> | undefined);
    const search = input?.query ? `?${new URLSearchParams(toQuery(input.query)).toString()}` : '';
    const headers: Record<string, string> = {
      [Headers.trace]: traceId,
      [Headers.session]: sessionId,
    };
    const projectId = options.getProjectId?.();
    if (projectId) headers[Headers.projectId] = projectId;
    const token = options.getToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (input?.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input.body);
    }
    const response = await doFetch(`${baseUrl}${path}${search}`, {
      method: definition.method,
      headers,
      body,
      ...(input?.signal ? { signal: input.signal } : {}),
    });
    const payload = (await response.json().catch(() => null)) as { status?: unknown; error?: unknown } | null;
    if (!response.ok) {
      const message = payload && typeof payload.error === 'string' ? payload.error : `Network response was not ok (${response.status})`;
      const error = new ApiError(response.status, message, traceId);
      if (response.status === 401) options.onUnauthorized?.(error);
      throw error;
    }
    return payload as CallResponse<C>;
  }

  return { call, sessionId };
}

function toQuery(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}
