import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { authCalls, executionCalls, recorderCalls, workspaceCalls as ws } from '@rehearse/contract';
import { recordArgumentsOf } from '@rehearse/runner/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, joinAsMember, signUp, startTestApp, type TestApp } from '../testing/test-app.js';

/** The server's version, read from its package file here, not from the code under test. */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const SERVER = 'http://rehearse.test';
const HOUR = 3_600_000;

describe('a local recorder launch (issue 18, item 6)', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp('pglite');
  });
  afterAll(async () => test?.close());

  async function projectWith(envs: string[]) {
    const user = await signUp(test);
    const { allEnv } = await user.api.call(ws.getEnvList, { body: { projectId: user.projectId } });
    for (const name of envs)
      await user.api.call(ws.pushEnv, { body: { projectId: user.projectId, name, data: { baseUrl: `${SERVER}/demo-shop/` } } });
    for (const env of allEnv)
      await user.api.call(ws.deleteEnv, { body: { projectId: user.projectId, name: env.name.replace(/\.json$/, '') } });
    return user;
  }

  it('answers one command with a key made for this launch: the picked environment, this server’s runner, a new token once the last was used', async () => {
    const user = await projectWith(['staging', 'qa']);
    const projectId = user.projectId;
    const started = Date.now();
    const first = await user.api.call(recorderCalls.localLaunch, {
      body: { projectId, operation: 'recorder', env: 'qa.json', featureName: 'Checkout.feature', scenarioName: 'Pay' },
    });
    const token = /^REHEARSE_TOKEN=(rhk_\S+) /.exec(first.command)?.[1];
    expect(token).toBeDefined();
    expect(first.command).toBe(
      `REHEARSE_TOKEN=${token} npx --yes --package ${SERVER}/downloads/rehearse-runner-${VERSION}.tgz rehearse record --server ${SERVER} --env qa --feature Checkout --scenario Pay`,
    );
    expect(first.env).toBe('qa');
    expect(first.setupCommand).toBe(
      `npm install --global --no-audit --no-fund ${SERVER}/downloads/rehearse-runner-${VERSION}.tgz && rehearse setup --server ${SERVER}`,
    );
    // The folder install names the same server as the commands, whatever address the page was opened at.
    expect(first.installCommand).toBe(`npm install --no-save ${SERVER}/downloads/rehearse-runner-${VERSION}.tgz`);

    // The key works for this project, expires in eight hours, and says what it was made for.
    const asKey = test.client(token);
    expect((await asKey.call(ws.getEnvList, { body: { projectId } })).allEnv.map((env) => env.name).sort()).toEqual([
      'qa.json',
      'staging.json',
    ]);
    const { accessKeys } = await user.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } });
    const launchKey = accessKeys.find((key) => key.name === first.keyName)!;
    expect(launchKey.name).toMatch(/^Recorder launch \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(launchKey.token).not.toBe(token);
    const lifetime = Date.parse(launchKey.expiresAt!) - started;
    expect(lifetime).toBeGreaterThan(8 * HOUR - 60_000);
    expect(lifetime).toBeLessThanOrEqual(8 * HOUR + 60_000);

    // The deep link carries the same launch, and the handler reads it back as the same recording.
    const link = recordArgumentsOf(first.deepLink, [SERVER]);
    expect(link).toEqual({
      token,
      args: ['--server', SERVER, '--env', 'qa', '--project', projectId, '--branch', 'main', '--feature', 'Checkout', '--scenario', 'Pay'],
    });

    // The key was used (above), so the next launch has its own.
    const second = await user.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder' } });
    expect(second.command).not.toContain(token!);
    expect(second.env).toBe('staging');

    // Launch keys are nobody's CI key.
    await user.api.call(authCalls.createAccessKey, { body: { projectId, name: 'CI key' } });
    const ci = await user.api.call(executionCalls.runInstructions, { query: { projectId, env: 'qa' } });
    expect(ci.accessKeyName).toBe('CI key');
  });

  it('runs a pulled workspace for execute and keeps hostile names one shell word', async () => {
    const user = await projectWith(['qa']);
    const scenario = `It's "quoted" $(touch /tmp/pwned-launch) #not a comment`;
    const answer = await user.api.call(recorderCalls.localLaunch, {
      body: { projectId: user.projectId, operation: 'execute', env: 'qa', featureName: 'Shop', scenarioName: scenario },
    });
    const rehearse = `npx --yes --package ${SERVER}/downloads/rehearse-runner-${VERSION}.tgz rehearse`;
    const folder = `rehearse-${user.projectId.slice(0, 8)}`;
    expect(answer.command.replace(/rhk_[\w-]+/, 'rhk_TOKEN')).toBe(
      `export REHEARSE_TOKEN=rhk_TOKEN && ${rehearse} pull --server ${SERVER} --dir ${folder} && cd ${folder} && ${rehearse} run --env environments/qa.json --headed --scenario 'It'\\''s "quoted" $(touch /tmp/pwned-launch) #not a comment' features/Shop.feature`,
    );
    // bash hands the name to rehearse as one argument, unexpanded.
    const run = answer.command.slice(answer.command.lastIndexOf(`${rehearse} run`)).replace(`${rehearse} run`, 'printf "%s\\n"');
    const echoed = execFileSync('bash', ['-c', run], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(echoed.split('\n')).toContain(scenario);
  });

  it('refuses what it cannot launch with the reason, and makes no key', async () => {
    const user = await projectWith(['qa']);
    const projectId = user.projectId;
    const keys = async () => (await user.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } })).accessKeys.length;
    const before = await keys();

    const unknown = await failure(
      user.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder', env: 'production' } }),
    );
    expect([unknown.httpStatus, unknown.message]).toEqual([
      400,
      'The project has no environment of that name at this branch: pick one of its environments.',
    ]);
    const operation = await failure(
      user.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'format_disk' as 'recorder' } }),
    );
    expect([operation.httpStatus, operation.message]).toEqual([
      400,
      'Unknown recorder operation. Use recorder, ai_learn, execute, apitest or open_vscode.',
    ]);

    const bare = await projectWith([]);
    const none = await failure(bare.api.call(recorderCalls.localLaunch, { body: { projectId: bare.projectId, operation: 'recorder' } }));
    expect([none.httpStatus, none.message]).toEqual([
      400,
      'This project has no environment yet. Create one under Environments, then record.',
    ]);
    expect((await bare.api.call(authCalls.getAccessKeys, { query: { project_id: bare.projectId } })).accessKeys).toEqual([]);

    // A key cannot mint keys, a launch key included.
    const { accessKey } = await user.api.call(authCalls.createAccessKey, { body: { projectId, name: 'laptop' } });
    const minted = await failure(
      test.client(accessKey.token).call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder' } }),
    );
    expect(minted.httpStatus).toBe(403);
    expect(await keys()).toBe(before + 1);

    // Another project's member gets nothing either.
    const stranger = await signUp(test);
    const foreign = await failure(stranger.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder' } }));
    expect(foreign.httpStatus).toBe(403);
    expect(await keys()).toBe(before + 1);
  });

  it('appends the last access key again while it exists and has not been used (spec 01 §4), else makes a new one', async () => {
    const user = await projectWith(['qa']);
    const projectId = user.projectId;
    const launch = () => user.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder' } });
    const tokenOf = (answer: { command: string }) => /REHEARSE_TOKEN=(rhk_\S+) /.exec(answer.command)![1]!;
    const launchKeys = async () =>
      (await user.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } })).accessKeys.filter((key) =>
        key.name.startsWith('Recorder launch '),
      );

    // Five "Edit recording" clicks before the recorder ever ran: one key, the same token each time.
    const first = await launch();
    for (let click = 0; click < 4; click++) {
      const again = await launch();
      expect(tokenOf(again)).toBe(tokenOf(first));
      expect([again.keyName, again.expiresAt]).toEqual([first.keyName, first.expiresAt]);
      expect(recordArgumentsOf(again.deepLink, [SERVER]).token).toBe(tokenOf(first));
    }
    expect(await launchKeys()).toHaveLength(1);

    // The key was used (the recorder read the environment with it): the next launch has its own.
    await test.client(tokenOf(first)).call(ws.getEnvList, { body: { projectId } });
    const second = await launch();
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    expect(await launchKeys()).toHaveLength(2);
    // …and that new, unused one is the one appended next.
    expect(tokenOf(await launch())).toBe(tokenOf(second));

    // A last key that has expired, or has too little life left for a recording to publish with it, is not appended.
    const setExpiry = (interval: string) =>
      test.database.execute(
        `UPDATE access_keys SET expires_at = now() + interval '${interval}' WHERE project_id = '${projectId}' AND name = '${second.keyName}' AND last_used_at IS NULL`,
      );
    await setExpiry('30 minutes');
    const third = await launch();
    expect([tokenOf(third)]).not.toContain(tokenOf(second));
    await test.database.execute(
      `UPDATE access_keys SET expires_at = now() - interval '1 minute' WHERE project_id = '${projectId}' AND last_used_at IS NULL`,
    );
    const fourth = await launch();
    expect([tokenOf(second), tokenOf(third)]).not.toContain(tokenOf(fourth));

    // Another member's unused launch key is never handed to this person, nor this person's to them.
    const other = await signUp(test);
    await joinAsMember(user, other, projectId);
    const theirs = await other.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder' } });
    expect(tokenOf(theirs)).not.toBe(tokenOf(fourth));
    expect(tokenOf(await launch())).toBe(tokenOf(fourth));
  });

  it('removes the person’s expired launch keys when it makes a new one, and nothing else', async () => {
    const user = await projectWith(['qa']);
    const projectId = user.projectId;
    const old = await user.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder' } });
    await user.api.call(authCalls.createAccessKey, { body: { projectId, name: 'CI key' } });
    // Eight hours later: the old launch key has expired (the clock is moved in the database).
    await test.database.execute(
      `UPDATE access_keys SET expires_at = now() - interval '1 minute' WHERE project_id = '${projectId}' AND name = '${old.keyName}'`,
    );
    const fresh = await user.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder' } });
    const names = (await user.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } })).accessKeys.map((key) => key.name);
    expect(names.sort()).toEqual(['CI key', fresh.keyName].sort());
  });
});
