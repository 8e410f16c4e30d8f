/**
 * A repository's prepared statement, built on first use and kept: the statements every request
 * makes (its session, its project access) then skip drizzle's query building, and on PostgreSQL,
 * where the name makes it a named statement of each pooled connection, the server's parse and plan.
 * Names must be unique per statement text across the process (node-postgres keys statements by name).
 */
export function preparedOnce<T>(prepare: () => T): () => T {
  let prepared: T | undefined;
  return () => (prepared ??= prepare());
}
