// `npm run pack --workspace packages/runner` (and `npm start`): builds the runner tarball the
// server serves at /downloads, unless the sources are unchanged since the last build.
import path from 'node:path';
import { buildRunnerPackage } from './build.js';

const built = await buildRunnerPackage({ force: process.argv.includes('--force') });
process.stdout.write(
  `${built.built ? 'Built' : 'Up to date:'} ${path.relative(process.cwd(), built.tarball)} (${(built.bytes / 1024).toFixed(0)} KiB)\n`,
);
