import { z } from 'zod';
import { defineCall, EXAMPLE_PROJECT, Ok } from './call.js';
import { Messages } from './messages.js';
import { isIanaTimeZone } from './time-zones.js';
import { ProjectId } from './validation.js';

export const WEEK_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** Browsers and viewports of spec 02 §9; the default flow is Chromium at Desktop - 1024px. */
export const BROWSERS = ['Chromium', 'Firefox', 'WebKit'] as const;
export const VIEWPORTS = ['Desktop - 1440px', 'Desktop - 1024px', 'Tablet - 800px', 'Mobile - 375px'] as const;

/**
 * The fixed-offset time zones the planner offers first (spec 02 §9, in its order), then UTC, the
 * default schedule's offset 0; every IANA zone follows them in the planner.
 */
export const TIME_ZONES = [
  { label: 'Central ST', offset: -6 },
  { label: 'Eastern ST', offset: -5 },
  { label: 'Atlantic ST', offset: -4 },
  { label: 'Afghanistan', offset: 4.5 },
  { label: 'Pakistan', offset: 5 },
  { label: 'India', offset: 5.5 },
  { label: 'Moscow', offset: 3 },
  { label: 'Iran', offset: 3.5 },
  { label: 'Gulf', offset: 4 },
  { label: 'UTC', offset: 0 },
] as const;

export const Schedule = z.object({
  days: z
    .array(z.enum(WEEK_DAYS))
    .min(1, Messages.scheduleDaysRequired)
    .refine(
      (days) => days.every((day, i) => i === 0 || WEEK_DAYS.indexOf(day) > WEEK_DAYS.indexOf(days[i - 1]!)),
      Messages.scheduleDaysOrder,
    ),
  isBiweekly: z.boolean().default(false),
  /** 24-hour 'HH:mm' in 15-minute steps. */
  time: z.string().regex(/^([01]\d|2[0-3]):(00|15|30|45)$/, Messages.scheduleTimeInvalid),
  /** Offset from UTC in hours; quarter hours allowed (5.5 for India, 5.75 for Nepal). */
  timeZone: z
    .number()
    .min(-12, Messages.scheduleTimeZoneInvalid)
    .max(14, Messages.scheduleTimeZoneInvalid)
    .multipleOf(0.25, Messages.scheduleTimeZoneInvalid),
  /**
   * An IANA zone ('America/New_York'). When present the schedule's time is read in it, daylight
   * saving included, and `timeZone` is only its offset when the schedule was saved; schedules
   * saved before it existed hold the offset alone and keep firing at it.
   */
  ianaTimeZone: z.string().refine(isIanaTimeZone, Messages.scheduleIanaTimeZoneInvalid).optional(),
});
export type Schedule = z.infer<typeof Schedule>;

export const ScenarioEntry = z.object({
  featureIndex: z.number().int().min(0),
  scenarioIndex: z.number().int().min(0),
  command: z.string(),
});

export const ScenarioGroup = z.object({
  name: z.string().trim().min(1).max(100),
  threadCount: z
    .number({ error: Messages.threadCountInvalid })
    .int(Messages.threadCountInvalid)
    .min(0, Messages.threadCountInvalid)
    .max(64, Messages.threadCountInvalid),
  tags: z.array(z.string().trim().min(1).max(100)).min(1, Messages.groupTagRequired).max(50),
  /** Computed by the server from the tags; sent values are ignored. */
  scenarios: z.array(ScenarioEntry).optional(),
});
export type ScenarioGroup = z.infer<typeof ScenarioGroup>;

export const Flow = z.object({
  viewport: z.enum(VIEWPORTS).default('Desktop - 1024px'),
  browser: z.enum(BROWSERS).default('Chromium'),
  scenarioGroups: z.array(ScenarioGroup).min(1, Messages.flowGroupRequired).max(20),
});
export type Flow = z.infer<typeof Flow>;

/** What a client sends to create or update an execution (spec 02 §3 "Execution"). */
export const ExecutionInput = z.object({
  projectId: ProjectId,
  name: z.string({ error: Messages.executionNameRequired }).trim().min(1, Messages.executionNameRequired).max(120),
  env: z.string({ error: Messages.executionEnvRequired }).trim().min(1, Messages.executionEnvRequired).max(200),
  branch: z.string({ error: Messages.executionBranchRequired }).trim().min(1, Messages.executionBranchRequired).max(200).default('main'),
  flows: z.array(Flow).min(1, Messages.flowRequired).max(10),
  schedule: Schedule.nullable().optional(),
  isSingleThreaded: z.boolean().default(false),
  enabled: z.boolean().default(false),
});
export type ExecutionInput = z.input<typeof ExecutionInput>;

export const Execution = z.object({
  _id: z.string(),
  id: z.string(),
  projectId: z.string(),
  userId: z.string(),
  creator: z.string(),
  name: z.string(),
  env: z.string(),
  branch: z.string(),
  flows: z.array(Flow.extend({ scenarioGroups: z.array(ScenarioGroup.extend({ scenarios: z.array(ScenarioEntry) })) })),
  schedule: Schedule.nullable(),
  isSingleThreaded: z.boolean(),
  enabled: z.boolean(),
  running: z.boolean(),
  /** Active if running, else Planned with a schedule, else Draft (spec 02 §4). */
  displayStatus: z.enum(['Active', 'Planned', 'Draft']),
  /** How its latest run went, so the list says it beside the spec's status; null before a first run. */
  lastRun: z.object({ runId: z.string(), state: z.enum(['running', 'passed', 'failed', 'halted']), at: z.string() }).nullable(),
  scheduleText: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Execution = z.infer<typeof Execution>;

/**
 * The human text of a schedule (spec 02 §4): 'Every day at T', 'Every weekday at T',
 * 'Every 2 weeks on days at T', 'Every week on days at T', and a dash when there is none.
 */
export function scheduleText(schedule: Pick<Schedule, 'days' | 'isBiweekly' | 'time'> | null | undefined): string {
  if (!schedule || schedule.days.length === 0) return '-';
  const at = `at ${schedule.time}`;
  if (schedule.days.length === 7) return `Every day ${at}`;
  const weekdays = WEEK_DAYS.slice(0, 5);
  if (!schedule.isBiweekly && schedule.days.length === 5 && weekdays.every((day) => schedule.days.includes(day)))
    return `Every weekday ${at}`;
  return `${schedule.isBiweekly ? 'Every 2 weeks' : 'Every week'} on ${schedule.days.join(', ')} ${at}`;
}

/** The runner command of one scenario of an execution (spec 02 §3), or the spec's echo when a name is missing. */
export function scenarioCommand(env: string, featurePath: string | undefined, scenarioName: string | undefined): string {
  if (!featurePath || !scenarioName) return 'echo "Failed to generate command"';
  const envFile = env.endsWith('.json') ? env : `${env}.json`;
  const quoted = scenarioName.replace(/(["\\$`])/g, '\\$1');
  return `npx rehearse run --env environments/${envFile} --token {token} --headless --scenario "${quoted}" ${featurePath}`;
}

const exampleExecution = {
  projectId: EXAMPLE_PROJECT,
  name: 'Nightly',
  env: 'default',
  flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 1, tags: ['@missing'] }] }],
};

/** The executions calls of spec 02 §7 that plan and schedule executions. */
export const executionCalls = {
  create: defineCall({
    method: 'POST',
    path: '/api/executions/new',
    summary: 'Save a new execution; its groups’ scenarios are computed from their tags',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: ExecutionInput,
    response: Ok.extend({ execution: Execution }),
    example: { body: exampleExecution },
  }),
  /**
   * Spec 02 §7 answers this PUT with true/false. Ours keeps the spec's general shape ({status,
   * error, ...}): `updated` is that true/false, and the saved execution comes with it so the client
   * patches its cache from the answer instead of fetching the execution again. The spec's
   * BLINQ_TOKEN and NODE_ENV_BLINQ query parameters are accepted and ignored: the server runs with
   * its own job keys and environments.
   */
  update: defineCall({
    method: 'PUT',
    path: '/api/executions/:id',
    summary: 'Replace an execution (refused while it runs)',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'execution', write: true },
    params: z.object({ id: z.uuid({ error: Messages.executionNotFound }) }),
    query: z.object({ wasScheduleUpdated: z.string().optional() }).catchall(z.string()),
    body: ExecutionInput,
    response: Ok.extend({ updated: z.boolean(), execution: Execution }),
    example: { params: { id: EXAMPLE_PROJECT }, body: exampleExecution },
  }),
  get: defineCall({
    method: 'GET',
    path: '/api/executions/:id',
    summary: 'One execution',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'execution' },
    params: z.object({ id: z.uuid({ error: Messages.executionNotFound }) }),
    response: Ok.extend({ execution: Execution }),
    example: { params: { id: EXAMPLE_PROJECT } },
  }),
  list: defineCall({
    method: 'GET',
    path: '/api/executions',
    summary: 'Executions of a project',
    access: 'project',
    project: { from: 'query', field: 'projectId' },
    query: z.object({ projectId: ProjectId }),
    response: Ok.extend({ executions: z.array(Execution) }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
  remove: defineCall({
    method: 'DELETE',
    path: '/api/executions/:id',
    summary: 'Delete an execution (refused while it runs)',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'execution', write: true },
    params: z.object({ id: z.uuid({ error: Messages.executionNotFound }) }),
    response: Ok,
    example: { params: { id: EXAMPLE_PROJECT } },
  }),
  schedule: defineCall({
    method: 'POST',
    path: '/api/executions/schedule/:id',
    summary: 'Enable an execution’s schedule (with a new schedule when given)',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'execution', write: true },
    params: z.object({ id: z.uuid({ error: Messages.executionNotFound }) }),
    body: z.object({ schedule: Schedule.optional(), envVariables: z.record(z.string(), z.unknown()).optional() }),
    response: Ok.extend({ execution: Execution }),
    example: { params: { id: EXAMPLE_PROJECT }, body: {} },
  }),
  deschedule: defineCall({
    method: 'POST',
    path: '/api/executions/deschedule/:id',
    summary: 'Disable an execution’s schedule (the schedule is kept)',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'execution', write: true },
    params: z.object({ id: z.uuid({ error: Messages.executionNotFound }) }),
    response: Ok.extend({ execution: Execution }),
    example: { params: { id: EXAMPLE_PROJECT } },
  }),
  run: defineCall({
    method: 'POST',
    path: '/api/executions/run/:id',
    summary: 'Start an execution now: one run report, appended to as scenarios finish (refused while it runs)',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'execution', write: true },
    params: z.object({ id: z.uuid({ error: Messages.executionNotFound }) }),
    response: Ok.extend({ execution: Execution, runId: z.string() }),
    example: { params: { id: EXAMPLE_PROJECT } },
  }),
  halt: defineCall({
    method: 'POST',
    path: '/api/executions/halt/:id',
    summary: 'Stop every worker of a running execution and mark its run',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'execution', write: true },
    params: z.object({ id: z.uuid({ error: Messages.executionNotFound }) }),
    response: Ok.extend({ execution: Execution }),
    example: { params: { id: EXAMPLE_PROJECT } },
  }),
  reportLink: defineCall({
    method: 'GET',
    path: '/api/executions/report-link/:id',
    summary: 'Link to the run report of the execution’s latest run (null before its first run)',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'execution' },
    params: z.object({ id: z.uuid({ error: Messages.executionNotFound }) }),
    response: Ok.extend({ reportLink: z.string().nullable(), runId: z.string().nullable() }),
    example: { params: { id: EXAMPLE_PROJECT } },
  }),
  runInstructions: defineCall({
    method: 'GET',
    path: '/api/executions/run-instructions',
    summary: 'Generated commands to run the project’s scenarios in CI/CD (GitHub Actions, GitLab CI, shell)',
    access: 'project',
    project: { from: 'query', field: 'projectId' },
    /** feature + scenario: the commands run that one scenario (the scenario's "Run via CI/CD" dialog). */
    query: z.object({
      projectId: ProjectId,
      env: z.string().max(200).optional(),
      branch: z.string().max(200).optional(),
      feature: z.string().max(500).optional(),
      scenario: z.string().max(500).optional(),
    }),
    response: Ok.extend({
      /** The first access key's name, or null when the project has none (the text then says how to make one). */
      accessKeyName: z.string().nullable(),
      /** The environment the commands run against: the one asked for, else the project's first; null when it has none. */
      env: z.string().nullable(),
      /** The project's environments at the branch, for the page's picker. */
      environments: z.array(z.string()),
      instructions: z.array(
        z.object({ id: z.enum(['github', 'gitlab', 'shell']), title: z.string(), language: z.string(), content: z.string() }),
      ),
    }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
  /**
   * Spec 02 §7 answers the number of free threads. Ours is the spec's general shape with that number
   * as `freeThreads`, plus the project's maximum for the planner's '{n} threads (parallel
   * executions) available'. The spec's `maxExecutionThreads` query parameter is accepted and
   * ignored: the limit is the project's own (instance administration), never the client's.
   */
  freeThreadCount: defineCall({
    method: 'GET',
    path: '/api/executions/free-thread-count',
    summary: 'Threads not taken by running executions (DESIGN §11)',
    access: 'project',
    project: { from: 'query', field: 'projectId' },
    query: z.object({ projectId: ProjectId, maxExecutionThreads: z.string().optional() }),
    response: Ok.extend({ freeThreads: z.number().int(), maxExecutionThreads: z.number().int() }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
} as const;
