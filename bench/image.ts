/**
 * The image (issue 42): its size, and how long it takes from `podman run` to a healthy
 * /api/health, median of BENCH_RUNS (5) starts of a fresh container. The image is the one
 * deploy/image/build.sh builds from this checkout (reused when the sources are unchanged), or
 * REHEARSE_TEST_IMAGE. Skipped, saying so, on a machine without Podman and mmdebstrap.
 *
 *   npx tsx bench/image.ts      (also part of `npm run bench`)
 */
import { loadavg } from 'node:os';
import {
  buildImage,
  canRunContainers,
  CONTAINER_START_MS,
  podman,
  removeContainers,
  waitForHealthy,
} from '../apps/server/src/testing/containers.js';
import { freePort } from '../apps/server/src/testing/ports.js';
import { percentile } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

if (!canRunContainers()) {
  console.log('Image: skipped, this machine has no Podman and mmdebstrap (deploy/image/build.sh needs both).');
  process.exit(0);
}

const image = await buildImage();
const bytes = Number(await podman(['image', 'inspect', '--format', '{{.Size}}', image]));
console.log(
  `Image ${image}: ${(bytes / 1e9).toFixed(2)} GB. Load average at start ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}.`,
);
const starts: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const name = `rehearse-image-bench-${process.pid}-${run}`;
  const port = await freePort();
  const started = performance.now();
  await podman(['run', '--detach', '--name', name, '--security-opt', 'unmask=/proc/*', '--publish', `127.0.0.1:${port}:4000`, image]);
  try {
    await waitForHealthy(`http://127.0.0.1:${port}/api/health`, CONTAINER_START_MS, () => podman(['logs', name]));
    starts.push(performance.now() - started);
  } finally {
    await removeContainers(name);
  }
}
starts.sort((a, b) => a - b);
console.log(
  `podman run to a healthy /api/health: median ${(percentile(starts, 50) / 1000).toFixed(1)} s ` +
    `(min ${(starts[0]! / 1000).toFixed(1)}, max ${(starts.at(-1)! / 1000).toFixed(1)}, ${RUNS} starts; goal ≤ 10 s).`,
);
console.log(
  `Load average at the end ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}.`,
);
