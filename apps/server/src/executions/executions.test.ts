import { executionCalls as calls, scheduleText, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

const FEATURE = `Feature: Cart

  @smoke @cart
  Scenario: Add one
    Given I open "/"

  @cart
  Scenario: Add two
    Given I open "/"

  @login
  Scenario: Sign in
    Given I open "/login.html"
`;

describe('schedule text', () => {
  it('says each repeat option as the spec words it', () => {
    expect(scheduleText(null)).toBe('-');
    expect(scheduleText({ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], isBiweekly: false, time: '01:45' })).toBe(
      'Every day at 01:45',
    );
    expect(scheduleText({ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], isBiweekly: false, time: '09:00' })).toBe('Every weekday at 09:00');
    expect(scheduleText({ days: ['Mon', 'Thu'], isBiweekly: true, time: '23:15' })).toBe('Every 2 weeks on Mon, Thu at 23:15');
    expect(scheduleText({ days: ['Sat'], isBiweekly: false, time: '06:30' })).toBe('Every week on Sat at 06:30');
  });
});

describe.each(testBackends())('executions on %s', (backend) => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;
  const plan = (overrides: Record<string, unknown> = {}) => ({
    projectId,
    name: 'Nightly',
    env: 'default',
    flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 2, tags: ['@cart'] }] }],
    ...overrides,
  });

  beforeAll(async () => {
    test = await startTestApp(backend);
    user = await signUp(test, { email: 'planner@acme.test' });
    projectId = user.projectId;
    await user.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'cart.feature', content: FEATURE } } });
  });
  afterAll(async () => test?.close());

  it('saves an execution with its groups’ scenarios computed from their tags', async () => {
    const { execution } = await user.api.call(calls.create, { body: plan() });
    expect(execution).toMatchObject({ name: 'Nightly', displayStatus: 'Draft', scheduleText: '-', lastRun: null });
    expect(execution.creator).toMatch(/^User\d+ Tester$/);
    const group = execution.flows[0]!.scenarioGroups[0]!;
    expect(execution.flows[0]).toMatchObject({ browser: 'Chromium', viewport: 'Desktop - 1024px' });
    expect(group.scenarios.map((s) => s.command)).toEqual([
      'npx rehearse run --env environments/default.json --token {token} --headless --scenario "Add one" features/cart.feature',
      'npx rehearse run --env environments/default.json --token {token} --headless --scenario "Add two" features/cart.feature',
    ]);

    // Changing the tags or the environment rewrites the scenarios and their commands.
    const { execution: updated } = await user.api.call(calls.update, {
      params: { id: execution.id },
      query: {},
      body: plan({ env: 'staging', flows: [{ scenarioGroups: [{ name: 'G', threadCount: 1, tags: ['smoke', '@login'] }] }] }),
    });
    expect(updated.flows[0]!.scenarioGroups[0]!.scenarios.map((s) => s.command)).toEqual([
      'npx rehearse run --env environments/staging.json --token {token} --headless --scenario "Add one" features/cart.feature',
      'npx rehearse run --env environments/staging.json --token {token} --headless --scenario "Sign in" features/cart.feature',
    ]);
    expect((await user.api.call(calls.list, { query: { projectId } })).executions.map((e) => e.id)).toContain(execution.id);
  });

  it('selects an outline by a tag that only one of its Examples tables carries', async () => {
    await user.api.call(ws.pushFile, {
      body: {
        projectId,
        directory: 'features',
        file: {
          name: 'regions.feature',
          content: `Feature: Regions

  Scenario Outline: Ship to <country>
    Given I open "/<country>"

    @eu
    Examples:
      | country |
      | de      |

    Examples:
      | country |
      | us      |

  Scenario: Ship nowhere
    Given I open "/"
`,
        },
      },
    });
    const { execution } = await user.api.call(calls.create, {
      body: plan({ flows: [{ scenarioGroups: [{ name: 'EU', threadCount: 1, tags: ['@eu'] }] }] }),
    });
    expect(execution.flows[0]!.scenarioGroups[0]!.scenarios.map((s) => s.command)).toEqual([
      'npx rehearse run --env environments/default.json --token {token} --headless --scenario "Ship to <country>" features/regions.feature',
    ]);
    await user.api.call(calls.remove, { params: { id: execution.id } });
  });

  it('enables only with a schedule, and schedules and deschedules', async () => {
    expect((await failure(user.api.call(calls.create, { body: plan({ enabled: true }) }))).message).toBe('Schedule is required');
    const { execution } = await user.api.call(calls.create, { body: plan() });
    expect((await failure(user.api.call(calls.schedule, { params: { id: execution.id }, body: {} }))).message).toBe('Schedule is required');
    const scheduled = await user.api.call(calls.schedule, {
      params: { id: execution.id },
      body: { schedule: { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], isBiweekly: false, time: '01:45', timeZone: 5.5 } },
    });
    expect(scheduled.execution).toMatchObject({ enabled: true, displayStatus: 'Planned', scheduleText: 'Every weekday at 01:45' });
    const zoned = { days: ['Mon' as const], isBiweekly: false, time: '09:00', timeZone: -5, ianaTimeZone: 'America/New_York' };
    const inNewYork = await user.api.call(calls.schedule, { params: { id: execution.id }, body: { schedule: zoned } });
    expect(inNewYork.execution.schedule).toEqual(zoned);
    const off = await user.api.call(calls.deschedule, { params: { id: execution.id } });
    expect(off.execution).toMatchObject({ enabled: false, displayStatus: 'Planned' });
  });

  it('refuses bad plans with clear messages and changes nothing', async () => {
    const before = (await user.api.call(calls.list, { query: { projectId } })).executions.length;
    const bad = async (body: Record<string, unknown>) => (await failure(user.api.call(calls.create, { body: plan(body) }))).message;
    expect(await bad({ name: ' ' })).toBe('Name is required.');
    expect(await bad({ env: '' })).toBe('Environment is required.');
    expect(await bad({ flows: [{ scenarioGroups: [{ name: 'G', threadCount: -1, tags: ['@cart'] }] }] })).toBe(
      'Thread count must be a whole number from 0 to the threads available.',
    );
    expect(await bad({ flows: [{ scenarioGroups: [{ name: 'G', threadCount: 1e9, tags: ['@cart'] }] }] })).toBe(
      'Thread count must be a whole number from 0 to the threads available.',
    );
    expect(await bad({ flows: [{ scenarioGroups: [{ name: 'G', threadCount: 5, tags: ['@cart'] }] }] })).toBe(
      'Thread count is higher than the threads this project has: 2',
    );
    expect(await bad({ flows: [{ scenarioGroups: [{ name: 'G', threadCount: 1, tags: [] }] }] })).toBe(
      'Select at least one tag for every scenario group.',
    );
    expect(await bad({ flows: [{ scenarioGroups: [{ name: 'G', threadCount: 1, tags: ['@nope'] }] }] })).toBe('Unknown tag: @nope');
    expect(await bad({ schedule: { days: ['Wed', 'Mon'], isBiweekly: false, time: '01:45', timeZone: 0 } })).toBe(
      'Days must be in week order (Mon to Sun), each once.',
    );
    expect(await bad({ schedule: { days: ['Mon'], isBiweekly: false, time: '01:40', timeZone: 0 } })).toBe(
      'Time must be HH:mm in 15-minute steps.',
    );
    expect(await bad({ schedule: { days: ['Mon'], isBiweekly: false, time: '01:45', timeZone: 5.3 } })).toBe(
      'Time zone must be an offset from -12 to 14 hours in quarter hours.',
    );
    expect(
      await bad({ schedule: { days: ['Mon'], isBiweekly: false, time: '01:45', timeZone: 0, ianaTimeZone: 'Mars/Olympus_Mons' } }),
    ).toBe('Time zone must be an IANA time zone name such as America/New_York.');
    expect(await bad({ schedule: { days: ['Mon'], isBiweekly: false, time: '01:45', timeZone: 0, ianaTimeZone: '+05:30' } })).toBe(
      'Time zone must be an IANA time zone name such as America/New_York.',
    );
    expect((await user.api.call(calls.list, { query: { projectId } })).executions.length).toBe(before);

    const stranger = await signUp(test, { email: 'planner-stranger@else.test' });
    const mine = (await user.api.call(calls.list, { query: { projectId } })).executions[0]!;
    expect((await failure(stranger.api.call(calls.get, { params: { id: mine.id } }))).httpStatus).toBe(403);
    expect((await failure(stranger.api.call(calls.remove, { params: { id: mine.id } }))).httpStatus).toBe(403);
  });

  it('renames an execution and removes its schedule on save; a bad name is refused; a stranger can change nothing', async () => {
    const weekly = { days: ['Mon' as const], isBiweekly: false, time: '01:45', timeZone: 0 };
    const { execution } = await user.api.call(calls.create, { body: plan({ name: 'Before', schedule: weekly, enabled: true }) });
    expect(execution).toMatchObject({ displayStatus: 'Planned', enabled: true });
    const save = (body: Record<string, unknown>) =>
      user.api.call(calls.update, { params: { id: execution.id }, query: {}, body: plan({ schedule: weekly, enabled: true, ...body }) });

    expect((await save({ name: 'After' })).execution).toMatchObject({ name: 'After', displayStatus: 'Planned' });
    const rejected = await failure(save({ name: '  ' }));
    expect([rejected.httpStatus, rejected.message]).toEqual([400, 'Name is required.']);
    // Removing the schedule: kept enabled it is refused, as the planner words it; disabled it is a Draft.
    expect((await failure(save({ name: 'After', schedule: null }))).message).toBe('Schedule is required');
    const unscheduled = (await save({ name: 'After', schedule: null, enabled: false })).execution;
    expect(unscheduled).toMatchObject({ name: 'After', schedule: null, enabled: false, displayStatus: 'Draft', scheduleText: '-' });

    const stranger = await signUp(test, { email: 'planner-renamer@else.test' });
    const theirs = await failure(
      stranger.api.call(calls.update, {
        params: { id: execution.id },
        query: {},
        body: { ...plan({ name: 'Mine' }), projectId: stranger.projectId },
      }),
    );
    expect([403, 404]).toContain(theirs.httpStatus);
    const intoMine = await failure(
      stranger.api.call(calls.update, { params: { id: execution.id }, query: {}, body: plan({ name: 'Mine' }) }),
    );
    expect([403, 404]).toContain(intoMine.httpStatus);
    expect((await user.api.call(calls.get, { params: { id: execution.id } })).execution.name).toBe('After');
    await user.api.call(calls.remove, { params: { id: execution.id } });
  });

  it('counts free threads, refuses changes while running, and a project without threads', async () => {
    const { execution } = await user.api.call(calls.create, { body: plan() });
    expect((await user.api.call(calls.freeThreadCount, { query: { projectId } })).freeThreads).toBe(2);
    await test.database.execute(`update executions set running = true where id = '${execution.id}'`);
    expect((await user.api.call(calls.freeThreadCount, { query: { projectId } })).freeThreads).toBe(0);
    expect((await failure(user.api.call(calls.remove, { params: { id: execution.id } }))).message).toBe(
      'This execution is running; stop it first.',
    );
    expect((await user.api.call(calls.get, { params: { id: execution.id } })).execution.displayStatus).toBe('Active');
    await test.database.execute(`update executions set running = false where id = '${execution.id}'`);
    await user.api.call(calls.remove, { params: { id: execution.id } });
    expect((await failure(user.api.call(calls.get, { params: { id: execution.id } }))).httpStatus).toBe(404);

    await test.database.execute(`update projects set max_execution_threads = 0 where id = '${projectId}'`);
    expect((await failure(user.api.call(calls.create, { body: plan() }))).message).toBe('No threads available to execute scenarios');
    await test.database.execute(`update projects set max_execution_threads = 2 where id = '${projectId}'`);
  });
});
