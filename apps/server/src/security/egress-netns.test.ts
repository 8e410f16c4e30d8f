import { execFileSync, spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The egress rules, proven where a mistake would show: a network namespace of this test's own
 * with nothing but loopback, the metadata addresses assigned to its `lo` and answered by a logger
 * (testing/egress-probe.ts). Every door of the product that connects for a user is sent there in
 * every spelling, and the logger must see nothing. No packet leaves the namespace: it has no
 * other interface.
 */

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const PROBE = fileURLToPath(new URL('./testing/egress-probe.ts', import.meta.url));
const NAMESPACE = `rehearse-egress-${process.pid}`;
const HOSTS = path.join(tmpdir(), `${NAMESPACE}.hosts`);

const canMakeNamespaces = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    for (const tool of ['ip', 'nsenter', 'unshare']) execFileSync('which', [tool], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

interface ProbeResult {
  loggerHits: string[];
  goodHits: string[];
  doors: {
    reachability?: Record<string, string>;
    git?: Record<string, string>;
    recorder?: string[];
    runner?: { code: number | null; stdout: string; stderr: string };
    proxyRefusals: number;
  };
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: 'pipe' });
}

/** Runs the probe inside the namespace (for one door, or all) and returns what it printed. */
function runProbe(door?: string): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    // Into the namespace's network only (`ip netns exec` would also remount /sys, hiding the
    // cgroups the job sandbox needs), with a mount namespace of its own for the hosts file.
    const inside = [
      'sh',
      '-c',
      'mount --bind "$0" /etc/hosts && exec "$@"',
      HOSTS,
      process.execPath,
      '--import',
      'tsx',
      PROBE,
      ...(door ? [door] : []),
    ];
    const child = spawn(
      'nsenter',
      [`--net=/run/netns/${NAMESPACE}`, '--', 'unshare', '--mount', '--propagation', 'private', '--', ...inside],
      {
        cwd: REPO,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('EGRESS-RESULT '));
      if (!line) reject(new Error(`the probe printed no result (exit ${code}): ${err.slice(-3000)} ${out.slice(-2000)}`));
      else resolve(JSON.parse(line.slice('EGRESS-RESULT '.length)) as ProbeResult);
    });
  });
}

describe.skipIf(!canMakeNamespaces)('egress rules inside a network namespace with metadata addresses on its loopback', () => {
  beforeAll(() => {
    ip('netns', 'add', NAMESPACE);
    ip('-n', NAMESPACE, 'link', 'set', 'lo', 'up');
    ip('-n', NAMESPACE, 'addr', 'add', '169.254.169.254/32', 'dev', 'lo');
    ip('-n', NAMESPACE, 'addr', 'add', '100.100.100.200/32', 'dev', 'lo');
    ip('-n', NAMESPACE, '-6', 'addr', 'add', 'fd00:ec2::254/128', 'dev', 'lo', 'nodad');
    // Bound over /etc/hosts inside: a name for a metadata address, and one that answers a good
    // address and a metadata one (what a rebinding name does).
    writeFileSync(
      HOSTS,
      [
        '127.0.0.1 localhost good.test',
        '::1 localhost',
        '169.254.169.254 metadata.evil.test',
        '127.0.0.1 rebind.test',
        '169.254.169.254 rebind.test',
        '',
      ].join('\n'),
    );
  });

  afterAll(() => {
    if (existsSync(`/run/netns/${NAMESPACE}`)) ip('netns', 'del', NAMESPACE);
    rmSync(HOSTS, { force: true });
  });

  it(
    'refuses every spelling in the reachability check and git remotes, redirects included, and reaches the logger 0 times',
    { timeout: 120_000 },
    async () => {
      const result = await runProbe('reachability');
      expect(result.loggerHits).toEqual([]);
      const reach = result.doors.reachability!;
      for (const [url, verdict] of Object.entries(reach)) {
        if (url.startsWith('http://good.test')) expect(verdict, url).toBe('ok 302');
        else expect(verdict, url).toBe('metadata');
      }
      const git = (await runProbe('git')).doors.git!;
      for (const [url, verdict] of Object.entries(git)) expect(verdict, url).toMatch(/^refused/);
    },
  );

  it(
    'keeps the recorder browser from metadata addresses: navigation, redirect, subresources, websocket',
    { timeout: 180_000 },
    async () => {
      const result = await runProbe('recorder');
      expect(result.loggerHits).toEqual([]);
      expect(result.doors.recorder).toContain('ready');
      // The good app was reached through the proxy: the door works, it is only the rules that refuse.
      expect(result.goodHits).toEqual(expect.arrayContaining(['/redirect', '/subresources']));
      expect(result.doors.proxyRefusals).toBeGreaterThan(5);
    },
  );

  it(
    'keeps sandboxed jobs from metadata addresses: browser steps, API steps and raw sockets in step code',
    { timeout: 360_000 },
    async () => {
      const result = await runProbe('runner');
      expect(result.loggerHits).toEqual([]);
      const runner = result.doors.runner!;
      expect(result.goodHits, runner.stderr + runner.stdout).toEqual(expect.arrayContaining(['/redirect', '/subresources', '/api']));
      // Raw sockets have no route at all: the job's namespace has no network but the proxy's socket.
      const raw = /RAW (.*)/.exec(runner.stdout)?.[1] ?? '';
      expect(raw, runner.stdout).toMatch(/169\.254\.169\.254 (ENETUNREACH|ECONNREFUSED|EHOSTUNREACH)/);
      expect(raw).not.toContain('connected');
      expect(raw).toContain('127.0.0.1 ECONNREFUSED');
    },
  );
});
