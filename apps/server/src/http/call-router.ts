import {
  Headers,
  Messages,
  unsafeTextProblem,
  type CallDefinition,
  type CallParsed,
  type CallResponse,
  type ProjectScope,
} from '@rehearse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Caller, ProjectAccess } from './caller.js';
import { badRequest, forbidden } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    projectAccess: ProjectAccess | null;
  }
  interface FastifyContextConfig {
    /** The contract call a route implements; routes without one are listed in PUBLIC_NON_CALL_ROUTES. */
    call?: CallDefinition;
  }
}

export type CallContext<C extends CallDefinition> = CallParsed<C> & {
  caller: C['access'] extends 'public' ? Caller | null : Caller;
  access: C['access'] extends 'project' ? ProjectAccess : null;
  request: FastifyRequest;
  reply: FastifyReply;
};

export type CallHandler<C extends CallDefinition> = (context: CallContext<C>) => Promise<CallResponse<C>>;

/**
 * What the router asks of auth/, which builds on http/ (its errors, its router) and so is handed
 * in by app.ts rather than imported: the arrows run one way.
 */
export interface CallRouterDeps {
  /** Who the bearer token belongs to; throws 401 for nobody (auth/session.service.ts). */
  sessions: { authenticate(token: string | undefined): Promise<Caller> };
  /** The caller's access to the project a call names; throws 403/404 (auth/access.service.ts). */
  access: { authorize(caller: Caller, scope: ProjectScope, rawId: unknown): Promise<ProjectAccess> };
  /** Whether a job's key (scope 'run') may make this call (auth/job-keys.ts). */
  jobKeyMayCall: (call: CallDefinition) => boolean;
  authRateLimitPerMinute: number;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Registers contract calls as routes. Each route is the same chain: authenticate (before the body
 * is even read), validate with the contract's schemas, authorize against the project, run the
 * handler, check the answer against the contract.
 */
export function createCallRouter(app: FastifyInstance, deps: CallRouterDeps) {
  if (!app.hasRequestDecorator('caller')) {
    app.decorateRequest('caller', null);
    app.decorateRequest('projectAccess', null);
  }

  return function route<C extends CallDefinition>(call: C, handler: NoInfer<CallHandler<C>>): void {
    const options: RouteOptions = {
      method: call.method,
      url: call.path,
      schema: {
        ...(call.params ? { params: call.params } : {}),
        ...(call.query ? { querystring: call.query } : {}),
        ...(call.body ? { body: call.body } : {}),
        response: { 200: call.response },
      },
      ...(call.bodyLimit ? { bodyLimit: call.bodyLimit } : {}),
      config: {
        call,
        ...(call.rateLimited ? { rateLimit: { max: deps.authRateLimitPerMinute, timeWindow: '1 minute' } } : {}),
      },
      onRequest: async (request) => {
        if (call.access === 'public') return;
        const caller = await deps.sessions.authenticate(bearerToken(request));
        if ((call.access === 'user' || call.access === 'instanceAdmin') && caller.kind === 'accessKey')
          throw forbidden(Messages.accessKeyNotForUserCalls);
        if (call.access === 'instanceAdmin' && !caller.user.instanceAdmin) throw forbidden(Messages.instanceAdminOnly);
        if (caller.kind === 'accessKey' && caller.scope === 'run' && !deps.jobKeyMayCall(call)) throw forbidden(Messages.jobKeyCallRefused);
        request.caller = caller;
      },
      // Before the contract's schemas: no stored text may hold NUL (PostgreSQL refuses it) and no
      // key may reach a prototype, whatever the call; one rule here instead of one per field.
      preValidation: async (request) => {
        if (call.access === 'project' && call.project) fillProjectIdFromHeader(request, call.project);
        for (const part of [request.params, request.query, request.body]) {
          const problem = unsafeTextProblem(part);
          if (problem)
            throw badRequest(
              {
                nul: Messages.textHasNul,
                binaryContent: Messages.binaryContent,
                loneSurrogate: Messages.textNotUnicode,
                reservedKey: Messages.reservedName,
              }[problem],
            );
        }
      },
      preHandler: async (request) => {
        if (call.access !== 'project' || !call.project || !request.caller) return;
        const source = { body: request.body, query: request.query, params: request.params }[call.project.from] as
          Record<string, unknown> | undefined;
        request.projectAccess = await deps.access.authorize(request.caller, call.project, source?.[call.project.field]);
      },
      handler: async (request, reply) => {
        const context = {
          params: request.params,
          query: request.query,
          body: request.body,
          caller: request.caller,
          access: request.projectAccess,
          request,
          reply,
        } as CallContext<C>;
        return handler(context);
      },
    };
    app.route(options);
  };
}

export type CallRoute = ReturnType<typeof createCallRouter>;

/**
 * Spec 02 §7: clients send the project they work in as a `project-id` header on every call, and
 * several calls' bodies carry no project id (project/getDetails, scenarios/ideas,
 * process-user-request/generate, …). A call that names its project in the body or query takes it
 * from that header when the field is absent; a field that is present wins. Either way the id is
 * then checked and authorized like any other (an id the caller is no member of is a 403).
 */
function fillProjectIdFromHeader(request: FastifyRequest, project: NonNullable<CallDefinition['project']>): void {
  if ((project.resource ?? 'project') !== 'project' || project.from === 'params') return;
  const header = request.headers[Headers.projectId] ?? request.headers['project-id'];
  if (typeof header !== 'string' || header === '') return;
  if (project.from === 'body') {
    if (request.body === undefined || request.body === null) request.body = {};
    if (typeof request.body !== 'object' || Array.isArray(request.body)) return;
    const body = request.body as Record<string, unknown>;
    if (body[project.field] === undefined) body[project.field] = header;
  } else {
    const query = request.query as Record<string, unknown>;
    if (query[project.field] === undefined) query[project.field] = header;
  }
}
