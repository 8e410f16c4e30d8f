import { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may make a call.
 * - `public`: anyone (health, sign-in, sign-up).
 * - `user`: a signed-in person; access keys are refused because they stand for one project only.
 * - `project`: a member of the project named by `project`, or an access key of that project.
 * - `instanceAdmin`: a signed-in instance administrator (instance administration); keys are refused.
 */
export type CallAccess = 'public' | 'user' | 'project' | 'instanceAdmin';

/** A project role; ADMIN is the project's creator, everyone invited is a MEMBER. */
export type ProjectRole = 'ADMIN' | 'MEMBER';

/** Resources whose id alone names a project; the server resolves them before authorizing. */
export type ProjectResource = 'project' | 'accessKey' | 'run' | 'testCase' | 'comment' | 'job' | 'execution' | 'recorderSession';

/** Where a call carries the id that decides which project it is about. */
export interface ProjectScope {
  from: 'body' | 'query' | 'params';
  field: string;
  /** Which kind of id the field holds; `project` unless the call names a sub-resource. */
  resource?: ProjectResource;
  /** Role required beyond membership. */
  role?: ProjectRole;
  /** Message for a member whose role falls short; a generic one when absent. */
  roleMessage?: string;
  /** Writes are refused on projects whose licence has expired. */
  write?: boolean;
}

/** Sample input the permission-matrix test sends; must pass the call's validation for a member. */
export interface CallExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface CallDefinition {
  method: HttpMethod;
  /** Fastify-style path: `/api/auth/invitations/:id`. */
  path: string;
  summary: string;
  access: CallAccess;
  project?: ProjectScope;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  example?: CallExample;
  /** Largest request body in bytes, when a call needs more than the default (uploads). */
  bodyLimit?: number;
  /** Tighter per-caller rate limit, in requests per minute (sign-in and sign-up). */
  rateLimited?: boolean;
}

/** Declares a call once; server routes, the api-client and tests all read this object. */
export function defineCall<const C extends CallDefinition>(call: C): C {
  return call;
}

type InferOr<T, Fallback> = T extends z.ZodType ? z.input<T> : Fallback;

/** What a caller passes to make the call (before validation and defaults). */
export type CallInput<C extends CallDefinition> = {
  params: InferOr<C['params'], undefined>;
  query: InferOr<C['query'], undefined>;
  body: InferOr<C['body'], undefined>;
};

/** What the server handler receives (after validation and defaults). */
export type CallParsed<C extends CallDefinition> = {
  params: C['params'] extends z.ZodType ? z.output<C['params']> : undefined;
  query: C['query'] extends z.ZodType ? z.output<C['query']> : undefined;
  body: C['body'] extends z.ZodType ? z.output<C['body']> : undefined;
};

export type CallResponse<C extends CallDefinition> = z.output<C['response']>;

/** The success envelope every answer starts from (spec 02 §7: `{status, ...}`). */
export const Ok = z.object({ status: z.literal(true) });

/** The project id placeholder in call examples; the permission-matrix test puts a real one in. */
export const EXAMPLE_PROJECT = '00000000-0000-4000-8000-000000000000';

/** The uniform failure answer of every call. */
export const ErrorResponse = z.object({ status: z.literal(false), error: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Fills `:name` segments of a call path. */
export function buildPath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(value);
  });
}
