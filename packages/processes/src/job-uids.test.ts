import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJobUid, jobUidRange } from './job-uids.js';

describe('job uids', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rehearse-subuid-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("takes REHEARSE_JOB_UIDS, else root's /etc/subuid range, else the default", async () => {
    const subuid = path.join(dir, 'subuid');
    await writeFile(subuid, 'alice:100000:65536\nroot:300000:1000\n');
    expect(jobUidRange({ REHEARSE_JOB_UIDS: '500000:10' }, subuid)).toEqual({ first: 500000, count: 10 });
    expect(jobUidRange({}, subuid)).toEqual({ first: 300000, count: 1000 });
    expect(jobUidRange({}, path.join(dir, 'missing'))).toEqual({ first: 2_000_000_000, count: 65_536 });
  });

  it('refuses a bad range with a sentence naming the variable', () => {
    for (const bad of ['0:10', '5000', 'a:b', '4294967290:100', '5000:0']) {
      expect(() => jobUidRange({ REHEARSE_JOB_UIDS: bad })).toThrow(
        `REHEARSE_JOB_UIDS must be <first uid>:<count> (first at least 1000, the range below 4294967294), got "${bad}".`,
      );
    }
  });

  it('never hands one uid to two jobs at once, and hands it again once released', async () => {
    const range = { first: 1_999_000_000, count: 3 };
    const held = await Promise.all([claimJobUid(range), claimJobUid(range), claimJobUid(range)]);
    expect(new Set(held.map((claim) => claim.uid)).size).toBe(3);
    await expect(claimJobUid(range)).rejects.toThrow('Every job uid of 1999000000:3 is in use (REHEARSE_JOB_UIDS).');
    await held[1].release();
    const again = await claimJobUid(range);
    expect(again.uid).toBe(held[1].uid);
    for (const claim of [held[0], held[2], again]) await claim.release();
  });
});
