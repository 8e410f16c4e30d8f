import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * How many milliseconds (database time) a job's retry still waits for others before `claimer`
 * may take it: the claimer whose attempt errored (`erroredBy`) leaves it to the others until
 * `preferOtherMs` after its backoff (`retryAt`) ended; 0 for anyone else. One rule for the
 * execution jobs' worker threads and the "Run scenario" jobs' servers.
 */
export function retryHoldMs(erroredBy: AnyColumn, retryAt: AnyColumn, claimer: string, preferOtherMs: number): SQL<number> {
  return sql<number>`case when ${erroredBy} = ${claimer} and ${retryAt} is not null
    then greatest(0, extract(epoch from (${retryAt} + make_interval(secs => ${preferOtherMs / 1000}) - now())) * 1000)
    else 0 end::float8`;
}
