import { z } from 'zod';
import { defineCall, EXAMPLE_PROJECT, Ok } from './call.js';
import { Messages } from './messages.js';
import { ProjectId } from './validation.js';

/**
 * The AI engine's calls (spec 02 §7 "Runs service": scenarios/ideas, scenarios/scenario-creation,
 * process-user-request/generate, oversight/*). The built-in engine answers every one of them
 * without an external model; an OpenAI-compatible provider improves results when configured.
 */

/** A suggested scenario (spec 02 §3 "Scenario idea"): a name, its flow in plain English, and parameters. */
export const ScenarioIdea = z.object({
  name: z.string(),
  /** Plain-English lines, one action each, e.g. `fill "Email" with "{{user}}"`. */
  flow: z.array(z.string()),
  /** Parameter name → example value; referenced in the flow as `{{name}}`. */
  parameters: z.record(z.string(), z.string()),
});
export type ScenarioIdea = z.infer<typeof ScenarioIdea>;

/** Where scenarios/scenario-creation writes when the request names no feature (the spec's body names none). */
export const SCENARIO_CREATION_DEFAULT_FEATURE = 'Plain English scenarios';

/** A flow as the spec's idea carries it (one text, a line or a comma per action) or as lines. */
const CreationFlow = z
  .union([z.string().max(200_000, Messages.plainEnglishFlowTooLong), z.array(z.string())])
  .transform((flow) => (typeof flow === 'string' ? flow.split(/\r?\n/).filter((line) => line.trim() !== '') : flow))
  .pipe(
    z
      .array(z.string().max(1000, Messages.plainEnglishLineTooLong))
      .min(1, Messages.plainEnglishFlowEmpty)
      .max(200, Messages.plainEnglishFlowTooLong),
  );

/** Parameters as the spec's "JSON key/value string" or as an object; names to text values either way. */
const CreationParameters = z.union([z.string().max(100_000), z.record(z.string(), z.string())]).transform((parameters, context) => {
  if (typeof parameters !== 'string') return parameters;
  if (parameters.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(parameters);
    const checked = z.record(z.string(), z.string()).safeParse(parsed);
    if (checked.success) return checked.data;
  } catch {
    // Not JSON: answered with the message below.
  }
  context.addIssue({ code: 'custom', message: Messages.scenarioParametersInvalid });
  return z.NEVER;
});

/** How a failure was classified when a run tried to heal it (DESIGN §8). */
export const FailureClass = z.enum(['locator', 'data', 'server', 'unknown']);
export type FailureClass = z.infer<typeof FailureClass>;

/** A code fix proposed by self-healing and waiting for review (spec 01 §3 "Oversight"). */
export const OversightItem = z.object({
  _id: z.string(),
  /** The scenario execution (test case) the fix was found in. */
  scenario_id: z.string(),
  runId: z.string(),
  createdAt: z.string(),
  name: z.string(),
  classification: FailureClass,
  /** 0..1, how sure the engine is that the new element is the recorded one. */
  confidence: z.number(),
  /** Workspace path of the changed file and its contents before and after (for the diff viewer). */
  file: z.string(),
  before: z.string(),
  after: z.string(),
  beforeScreenshotId: z.string().nullable(),
  afterScreenshotId: z.string().nullable(),
  /**
   * What was healed, one entry per element: the step it happened in (its number in the scenario
   * and its text, absent for items filed before they were kept), the element's recorded name and
   * locator-file key, and what healing found in its place.
   */
  healed: z.array(
    z.object({
      stepNumber: z.number().int().optional(),
      step: z.string().optional(),
      element: z.string(),
      key: z.string(),
      foundAs: z.string().optional(),
    }),
  ),
  report: z.object({
    testCases: z.array(
      z.object({
        featureName: z.string(),
        scenarioName: z.string(),
        result: z.object({ status: z.string() }),
      }),
    ),
  }),
});
export type OversightItem = z.infer<typeof OversightItem>;

/** The four quick prompts of the AI step update (spec 02 §9), transformed exactly by the built-in engine. */
export const QUICK_PROMPTS = [
  'Continue if step fails',
  'Perform action only if element found',
  'Retry step',
  'Set click timeout to 2 minutes',
] as const;

export const aiCalls = {
  scenarioIdeas: defineCall({
    method: 'POST',
    path: '/api/runs/scenarios/ideas',
    summary: 'Scenario ideas from a description and the application memory',
    access: 'project',
    project: { from: 'body', field: 'projectId' },
    body: z.object({ projectId: ProjectId, description: z.string().max(4000).default('') }),
    response: Ok.extend({ result: z.array(ScenarioIdea), error: z.string().optional() }),
    example: { body: { projectId: EXAMPLE_PROJECT, description: 'log in and buy a lamp' } },
  }),
  /**
   * Spec 02 §7 sends {project id, name, flow, parameters, url, access_key} with the access key as
   * bearer and an `X-Source: Creation` header, and those fields alone succeed: the flow may be one
   * text (spec 02 §3's idea) and the parameters a JSON key/value string, and without a feature the
   * scenario goes to `SCENARIO_CREATION_DEFAULT_FEATURE`. The bearer is what authenticates here (a
   * key or a session); a body `access_key` and the header are accepted and ignored, so a key is
   * never read from a body, where request logs would keep it. The project id may come as the
   * `project-id` header (call-router). The answer adds what was written and, when asked, the
   * validation run.
   */
  scenarioCreation: defineCall({
    method: 'POST',
    path: '/api/runs/scenarios/scenario-creation',
    summary: 'Turns plain-English lines into a Gherkin scenario of the built-in steps and saves it',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      branch: z.string().max(200).optional(),
      featureName: z.string().min(1).max(80).default(SCENARIO_CREATION_DEFAULT_FEATURE),
      name: z.string().max(200),
      /** One plain-English action per line (or one text of lines). */
      flow: CreationFlow,
      parameters: CreationParameters.default({}),
      /** Base URL the scenario opens; the environment's when absent. */
      url: z.string().max(2000).optional(),
      /** Run the new scenario once against this environment before answering. */
      validateOnEnvironment: z.string().max(200).optional(),
    }),
    response: Ok.extend({
      featureName: z.string(),
      scenarioName: z.string(),
      /** The Gherkin steps written, e.g. `When I fill "Email" with "{{user}}"`. */
      steps: z.array(z.string()),
      /** Report link of the validation run, when one was asked for. */
      reportLink: z.string().nullable(),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT, featureName: 'Shop', name: 'Buy', flow: ['open "/"'] } },
  }),
  /**
   * How a plain-English flow reads, line by line, without saving anything (issue 44): the steps
   * each line becomes, and for a clause no step reads, a question with the steps it may have meant
   * (built-in steps, several naming elements of the application map). The dialog asks before it
   * creates; scenario creation still refuses a flow with a clause left unread.
   */
  scenarioReading: defineCall({
    method: 'POST',
    path: '/api/runs/scenarios/scenario-reading',
    summary: 'Reads plain-English lines as built-in steps, with candidates for each line it cannot read; saves nothing',
    access: 'project',
    project: { from: 'body', field: 'projectId' },
    body: z.object({ projectId: ProjectId, flow: CreationFlow }),
    response: Ok.extend({
      lines: z.array(
        z.object({
          line: z.string(),
          /** The Gherkin steps the line became, keywords included. */
          steps: z.array(z.string()),
          /** One per clause of the line no step reads, in order. */
          questions: z.array(
            z.object({
              clause: z.string(),
              candidates: z.array(z.string()),
              /** Why a clause that reads is still asked about (it opens a site outside the project's environments). */
              why: z.string().optional(),
            }),
          ),
          /** Steps whose nouns the application map resolved differently from the words alone, and why. */
          resolved: z.array(z.object({ from: z.string(), to: z.string(), why: z.string() })),
        }),
      ),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT, flow: ['open the shop', 'press the big blue button'] } },
  }),
  generateStepCode: defineCall({
    method: 'POST',
    path: '/api/runs/process-user-request/generate',
    summary: 'Applies a request (a quick prompt or free text) to one step function; answers the new file for review',
    access: 'project',
    project: { from: 'body', field: 'projectId' },
    body: z.object({
      projectId: ProjectId,
      user_request: z.string().min(1).max(4000),
      function_name: z.string().min(1).max(500),
      mjs_file_content: z.string().max(1_000_000),
    }),
    response: Ok.extend({ result: z.string() }),
    example: {
      body: { projectId: EXAMPLE_PROJECT, user_request: 'Retry step', function_name: 'x', mjs_file_content: '' },
    },
  }),
  generateStep: defineCall({
    method: 'POST',
    path: '/api/runs/steps/generate',
    summary: 'Generates code for one unimplemented step from its text and saves it to the workspace',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      branch: z.string().max(200).optional(),
      featureName: z.string().min(1).max(300),
      scenarioName: z.string().min(1).max(300),
      stepText: z.string().min(1).max(2000),
    }),
    response: Ok.extend({ file: z.string(), code: z.string() }),
    example: {
      body: { projectId: EXAMPLE_PROJECT, featureName: 'missing', scenarioName: 'missing', stepText: 'I open "/"' },
    },
  }),
  oversightList: defineCall({
    method: 'GET',
    path: '/api/runs/oversight/list',
    summary: 'Pending code fixes of a project, newest first',
    access: 'project',
    project: { from: 'query', field: 'project_id' },
    query: z.object({ project_id: ProjectId }),
    response: Ok.extend({ items: z.array(OversightItem) }),
    example: { query: { project_id: EXAMPLE_PROJECT } },
  }),
  archiveOversight: defineCall({
    method: 'POST',
    path: '/api/runs/oversight/archive-oversight',
    summary: 'Discards a pending code fix',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({ projectId: ProjectId, scenario_id: z.string().min(1).max(100) }),
    response: Ok,
    example: { body: { projectId: EXAMPLE_PROJECT, scenario_id: EXAMPLE_PROJECT } },
  }),
  acceptOversight: defineCall({
    method: 'POST',
    path: '/api/runs/oversight/accept',
    summary: 'Applies a pending code fix to the workspace as one commit',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({ projectId: ProjectId, scenario_id: z.string().min(1).max(100), branch: z.string().max(200).optional() }),
    response: Ok.extend({ commit: z.string() }),
    example: { body: { projectId: EXAMPLE_PROJECT, scenario_id: EXAMPLE_PROJECT } },
  }),
} as const;
