import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

/**
 * The HTTP client side of the bench. It runs in a worker thread so that issuing requests and
 * reading bodies does not share an event loop with the server (and, for PGlite, the database)
 * it is measuring: on two cores an in-process client would add its own work to every latency.
 */

export interface LoadJob {
  /** Full URLs (127.0.0.1 only); request i goes to urls[i % urls.length]. */
  urls: string[];
  token: string;
  requests: number;
  concurrency: number;
  /** The phase stops early once this much time has passed, so a slow server cannot stretch the bench. */
  maxMs: number;
}

export interface LoadResult {
  latenciesMs: number[];
  /** Requests that did not answer 200 with `"status":true`. */
  errors: number;
  firstError: string | null;
  elapsedMs: number;
  /** Body size of the last successful answer. */
  responseBytes: number;
  stoppedByTime: boolean;
}

async function runJob(job: LoadJob): Promise<LoadResult> {
  for (const url of job.urls) {
    if (new URL(url).hostname !== '127.0.0.1') throw new Error(`refusing non-loopback target ${url}`);
  }
  const latenciesMs: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let responseBytes = 0;
  let next = 0;
  let stoppedByTime = false;
  const headers = { authorization: `Bearer ${job.token}` };
  const started = performance.now();
  const deadline = started + job.maxMs;

  async function lane(): Promise<void> {
    while (next < job.requests) {
      if (performance.now() > deadline) {
        stoppedByTime = true;
        return;
      }
      const index = next++;
      const url = job.urls[index % job.urls.length] as string;
      const t0 = performance.now();
      try {
        const response = await fetch(url, { headers });
        const body = await response.arrayBuffer();
        latenciesMs.push(performance.now() - t0);
        // Checking only the head of the body keeps the client cheap while still catching error answers.
        const head = Buffer.from(body, 0, Math.min(body.byteLength, 32)).toString('utf8');
        if (response.status === 200 && head.startsWith('{"status":true')) {
          responseBytes = body.byteLength;
        } else {
          errors++;
          firstError ??= `${response.status} ${Buffer.from(body).toString('utf8').slice(0, 200)}`;
        }
      } catch (error) {
        errors++;
        firstError ??= String(error);
      }
    }
  }

  await Promise.all(Array.from({ length: job.concurrency }, () => lane()));
  return { latenciesMs, errors, firstError, elapsedMs: performance.now() - started, responseBytes, stoppedByTime };
}

parentPort?.on('message', (job: LoadJob) => {
  runJob(job).then(
    (result) => parentPort?.postMessage({ ok: true, result }),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: String(error) }),
  );
});
