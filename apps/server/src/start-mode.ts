import { probeSandbox, type SandboxProbe } from '@rehearse/processes';
import type { Settings } from './env.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * How this process starts, decided before it opens anything. A machine that can sandbox tenant
 * code (or whose operator said this install is trusted: REHEARSE_UNSANDBOXED_WORKERS) starts as
 * configured. One that cannot (a macOS or Windows laptop, a Linux without bubblewrap) starts as a
 * local single-user install: 127.0.0.1 only, sign-up closed after the first user, jobs without the
 * sandbox, said at start and on the Administration screen. Asked to listen beyond this machine
 * (HOST set to a non-loopback address) it refuses to start instead, naming both ways out: a
 * sandbox, or the explicit REHEARSE_UNSANDBOXED_WORKERS.
 */
export async function decideStartMode(
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
  probe: () => Promise<SandboxProbe> = () => probeSandbox(),
): Promise<{ settings: Settings; notice?: string }> {
  const runsJobs = settings.WORKER_PROCESSES > 0 || settings.LOCAL_WORKERS > 0;
  if (!runsJobs || settings.REHEARSE_UNSANDBOXED_WORKERS) return { settings };
  const sandbox = await probe();
  if (sandbox.ok) return { settings };
  const hostAsked = (env.HOST ?? '').trim() !== '';
  if (hostAsked && !LOOPBACK.has(settings.HOST)) {
    throw new Error(
      `Tenant code cannot be sandboxed on this machine: ${sandbox.missing}. Rehearse would listen on ${settings.HOST}, where anyone who reaches it could sign up and run code on this machine. ` +
        'Either give it a sandbox (install bubblewrap, or run the container image: docs/deploy.md), ' +
        'or set REHEARSE_UNSANDBOXED_WORKERS=1 to run jobs without one on a network you trust. ' +
        'Without HOST, Rehearse starts as a local single-user install on 127.0.0.1.',
    );
  }
  return {
    settings: { ...settings, HOST: '127.0.0.1', REHEARSE_UNSANDBOXED_WORKERS: true, localSingleUser: true },
    notice: `Local single-user install: this machine cannot sandbox test code (${sandbox.missing}), so Rehearse listens on 127.0.0.1 only, admits one user, and runs jobs without the sandbox. To share it with a team, run it on a server or in its container image (docs/deploy.md).`,
  };
}
