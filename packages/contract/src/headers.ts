/** Headers the api-client sends on every call (spec 02 §7: trace, session and project-id). */
export const Headers = {
  trace: 'x-trace-id',
  session: 'x-session-id',
  projectId: 'x-project-id',
  /** Echoed by the server so a user can quote it when reporting a problem. */
  requestId: 'x-request-id',
} as const;
