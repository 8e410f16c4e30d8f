import { z } from 'zod';
import { defineCall, EXAMPLE_PROJECT, Ok } from './call.js';
import { Limits } from './constants.js';
import { Messages } from './messages.js';
import { ProjectId, RecordKey } from './validation.js';

const Branch = z.string().trim().min(1).max(200).optional();
/** A full commit id (SHA-1, or SHA-256 for repositories that use it); abbreviations are refused. */
export const CommitId = z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, Messages.commitInvalid);
const IsPrivateRepo = z.union([z.boolean(), z.string()]).optional();
const Index = z.number().int().min(-1).max(1_000_000).nullable().optional();

/** An environment as listed: the file name (`staging.json`) and its content. */
export const EnvironmentEntry = z.object({
  name: z.string(),
  data: z.object({ name: z.string(), baseUrl: z.string() }).catchall(z.unknown()),
});
export type EnvironmentEntry = z.infer<typeof EnvironmentEntry>;

export const EnvironmentData = z.object({ name: z.string().optional(), baseUrl: z.string() }).catchall(z.unknown());

export const ScenarioSummary = z.object({
  type: z.enum(['Scenario', 'Scenario Outline']),
  name: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
  /** Feature, rule and scenario tags together: the tags every run of the scenario carries. */
  effectiveTags: z.array(z.string()),
  /** The tags of each Examples table (an outline's rows carry them too; see `scenarioHasAnyTag`). */
  examplesTags: z.array(z.array(z.string())),
  line: z.number().int(),
});
export type ScenarioSummary = z.infer<typeof ScenarioSummary>;

export const FeatureSummary = z.object({
  /** File name under features/, e.g. `checkout.feature` or `shop/checkout.feature`. */
  name: z.string(),
  path: z.string(),
  featureName: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  content: z.string(),
  scenarios: z.array(ScenarioSummary),
  /** Parser errors ("line N: reason") of a file that is not valid Gherkin (edited outside the platform). */
  errors: z.array(z.string()),
});
export type FeatureSummary = z.infer<typeof FeatureSummary>;

export const StepInfo = z.object({
  stepName: z.string(),
  keyword: z.string(),
  implemented: z.boolean(),
  implemented_at: z.string().nullable(),
  mjsFile: z.string().nullable(),
  mjsFileContent: z.string().nullable().optional(),
  isNotValid: z.boolean(),
  source: z.enum(['user', 'api', 'recorder']).nullable(),
  featureName: z.string(),
  scenarioName: z.string(),
  line: z.number().int(),
});
export type StepInfo = z.infer<typeof StepInfo>;

export const StepDefinitionRef = z.object({
  uri: z.string(),
  keyword: z.string(),
  pattern: z.string(),
  line: z.number().int(),
});
export type StepDefinitionRef = z.infer<typeof StepDefinitionRef>;

export const TestDataType = z.enum(['string', 'secret', 'totp']);
export const TestDataRow = z.object({
  key: z.string(),
  value: z.string(),
  DataType: TestDataType,
  /** Environment name, or '*' for every environment. */
  environment: z.string(),
});
export type TestDataRow = z.infer<typeof TestDataRow>;

export const WorkspaceFile = z.object({ name: z.string(), path: z.string(), size: z.number().int() });

const projectBody = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ projectId: ProjectId, isPrivateRepo: IsPrivateRepo, branch: Branch, ...shape });
const scope = { from: 'body', field: 'projectId' } as const;
const writeScope = { from: 'body', field: 'projectId', write: true } as const;
const queryScope = { from: 'query', field: 'projectId' } as const;

/** Calls of the "Workspace service" (spec 02 §7); every one reads or writes the project's git workspace. */
export const workspaceCalls = {
  getEnvList: defineCall({
    method: 'POST',
    path: '/api/workspace/get-env-list',
    summary: 'Environments of a branch and the caller’s last active one',
    access: 'project',
    project: scope,
    body: projectBody({}),
    response: Ok.extend({ allEnv: z.array(EnvironmentEntry), lastActiveEnv: z.string().nullable() }),
    example: { body: { projectId: EXAMPLE_PROJECT } },
  }),
  pushEnv: defineCall({
    method: 'POST',
    path: '/api/workspace/push-env',
    summary: 'Create an environment',
    access: 'project',
    project: writeScope,
    body: projectBody({ name: z.string().max(200), data: EnvironmentData }),
    response: Ok.extend({ env: EnvironmentEntry }),
    example: { body: { projectId: EXAMPLE_PROJECT, name: 'staging', data: { baseUrl: 'https://staging.example.com' } } },
  }),
  editEnv: defineCall({
    method: 'POST',
    path: '/api/workspace/edit-env',
    summary: 'Change or rename an environment; renaming keeps its content',
    access: 'project',
    project: writeScope,
    body: projectBody({ name: z.string().max(200), newName: z.string().max(200).optional(), newData: EnvironmentData }),
    response: Ok.extend({ env: EnvironmentEntry, warning: z.string().nullable() }),
    example: {
      body: { projectId: EXAMPLE_PROJECT, name: 'default', newName: 'renamed', newData: { baseUrl: 'https://x.example.com' } },
    },
  }),
  deleteEnv: defineCall({
    method: 'DELETE',
    path: '/api/workspace/delete-env',
    summary: 'Delete an environment',
    access: 'project',
    project: writeScope,
    body: projectBody({ name: z.string().max(200) }),
    response: Ok,
    example: { body: { projectId: EXAMPLE_PROJECT, name: 'default' } },
  }),
  updateLastActiveWorkspace: defineCall({
    method: 'POST',
    path: '/api/workspace/updateLastActiveWorkspace',
    summary: 'Remember the caller’s environment, branch, feature and scenario',
    access: 'project',
    project: scope,
    body: projectBody({ env: z.string().max(200).nullable().optional(), featureIndex: Index, scenarioIndex: Index }),
    response: Ok,
    example: { body: { projectId: EXAMPLE_PROJECT, env: 'default.json', featureIndex: 0, scenarioIndex: 0 } },
  }),
  getFeatureList: defineCall({
    method: 'POST',
    path: '/api/workspace/get-feature-list',
    summary: 'Every feature with its scenarios and tags',
    access: 'project',
    project: scope,
    body: projectBody({}),
    response: Ok.extend({
      features: z.array(FeatureSummary),
      allTags: z.array(z.string()),
      lastActiveFeatureIndex: z.number().int().nullable(),
      lastActiveScenarioIndex: z.number().int().nullable(),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT } },
  }),
  featuresCount: defineCall({
    method: 'POST',
    path: '/api/workspace/features-count',
    summary: 'How many features and scenarios a branch holds',
    access: 'project',
    project: scope,
    body: projectBody({}),
    response: Ok.extend({ count: z.number().int(), scenarios: z.number().int() }),
    example: { body: { projectId: EXAMPLE_PROJECT } },
  }),
  pushScenario: defineCall({
    method: 'POST',
    path: '/api/workspace/push-scenario',
    summary: 'Add or replace one scenario in a feature, creating the feature when new',
    access: 'project',
    project: writeScope,
    body: projectBody({
      /** Feature name (file name without `.feature`). */
      name: z.string().max(300),
      /** The scenario's Gherkin text (tags, keyword line, steps, examples). */
      data: z.string().max(Limits.scenarioTextMax),
      featureIndex: Index,
      /** Scenario to replace; absent or -1 adds a new one. */
      scenarioIndex: Index,
      description: z.string().max(4000).optional(),
    }),
    response: Ok.extend({ feature: FeatureSummary, scenarioIndex: z.number().int() }),
    example: {
      body: { projectId: EXAMPLE_PROJECT, name: 'matrix', data: 'Scenario: Example\n  Given I open "/"\n' },
    },
  }),
  deleteFeature: defineCall({
    method: 'POST',
    path: '/api/workspace/delete-feature',
    summary: 'Delete a feature file',
    access: 'project',
    project: writeScope,
    body: projectBody({ name: z.string().max(300) }),
    response: Ok,
    example: { body: { projectId: EXAMPLE_PROJECT, name: 'missing' } },
  }),
  deleteScenario: defineCall({
    method: 'POST',
    path: '/api/workspace/delete-scenario',
    summary: 'Delete one scenario; the only scenario of a feature deletes the feature',
    access: 'project',
    project: writeScope,
    body: projectBody({ featureName: z.string().max(300), scenarioIndex: z.number().int().min(0) }),
    response: Ok.extend({ featureDeleted: z.boolean() }),
    example: { body: { projectId: EXAMPLE_PROJECT, featureName: 'missing', scenarioIndex: 0 } },
  }),
  renameFeature: defineCall({
    method: 'POST',
    path: '/api/workspace/rename-feature',
    summary: 'Rename a feature (its file and its Feature: line)',
    access: 'project',
    project: writeScope,
    body: projectBody({ oldName: z.string().max(300), newName: z.string().max(300) }),
    response: Ok.extend({ feature: FeatureSummary }),
    example: { body: { projectId: EXAMPLE_PROJECT, oldName: 'missing', newName: 'renamed' } },
  }),
  renameScenario: defineCall({
    method: 'POST',
    path: '/api/workspace/rename-scenario',
    summary: 'Rename one scenario',
    access: 'project',
    project: writeScope,
    body: projectBody({
      featureName: z.string().max(300),
      scenarioIndex: z.number().int().min(0),
      newName: z.string().max(300),
    }),
    response: Ok.extend({ feature: FeatureSummary }),
    example: { body: { projectId: EXAMPLE_PROJECT, featureName: 'missing', scenarioIndex: 0, newName: 'Renamed' } },
  }),
  setScenarioTags: defineCall({
    method: 'POST',
    path: '/api/workspace/set-scenario-tags',
    summary: 'Replace one scenario’s tags',
    access: 'project',
    project: writeScope,
    body: projectBody({
      featureName: z.string().max(300),
      scenarioIndex: z.number().int().min(0),
      tags: z.array(z.string().max(100)).max(50),
    }),
    response: Ok.extend({ feature: FeatureSummary }),
    example: { body: { projectId: EXAMPLE_PROJECT, featureName: 'missing', scenarioIndex: 0, tags: ['@regression'] } },
  }),
  storeAndGetSteps: defineCall({
    method: 'POST',
    path: '/api/workspace/store-and-get-steps',
    summary: 'Every step of every scenario, and which step definition implements it',
    access: 'project',
    project: queryScope,
    query: z.object({ projectId: ProjectId }),
    body: z.object({ isPrivateRepo: IsPrivateRepo, branch: Branch }),
    response: Ok.extend({
      steps: z.array(StepInfo),
      implementedSteps: z.record(z.string(), z.object({ implemented: z.boolean(), source: z.string().nullable() })),
    }),
    example: { query: { projectId: EXAMPLE_PROJECT }, body: {} },
  }),
  getStepCodeByScenario: defineCall({
    method: 'POST',
    path: '/api/workspace/get-step-code-by-scenario',
    summary: 'The steps of one scenario with their step definition code',
    access: 'project',
    project: scope,
    body: projectBody({ featureName: z.string().max(300), scenarioName: z.string().max(300) }),
    response: Ok.extend({ steps: z.array(StepInfo) }),
    example: { body: { projectId: EXAMPLE_PROJECT, featureName: 'missing', scenarioName: 'missing' } },
  }),
  checkSteps: defineCall({
    method: 'POST',
    path: '/api/workspace/check-steps',
    summary:
      "The editor's step help: steps of a Gherkin text no definition implements, each with the steps it may have meant, and the project's own step patterns",
    access: 'project',
    project: scope,
    body: projectBody({ text: z.string().max(Limits.scenarioTextMax) }),
    response: Ok.extend({
      undefinedSteps: z.array(
        z.object({
          line: z.number().int(),
          /** Where the step's text begins (1-based), after its keyword in the text's own dialect. */
          column: z.number().int(),
          text: z.string(),
          /** Why the text cannot be read as a step (a quote never closed, a container no scope names), when that is the reason. */
          problem: z.string().optional(),
          suggestions: z.array(z.string()),
        }),
      ),
      /** The project's step definitions written as cucumber expressions (not the built-in ones, which the contract lists), for completion. */
      projectSteps: z.array(z.object({ pattern: z.string(), file: z.string() })),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT, text: 'Scenario: x\n  When I clicks on "Save"' } },
  }),
  pushFile: defineCall({
    method: 'POST',
    path: '/api/workspace/push-file',
    summary: 'Write one file of the workspace',
    access: 'project',
    project: writeScope,
    body: projectBody({
      directory: z.string().max(500),
      file: z.object({ name: z.string().max(255), content: z.string().max(Limits.workspaceFileMax) }),
    }),
    response: Ok.extend({ path: z.string() }),
    example: { body: { projectId: EXAMPLE_PROJECT, directory: 'notes', file: { name: 'a.txt', content: 'hi' } } },
  }),
  getFiles: defineCall({
    method: 'GET',
    path: '/api/workspace/get-files',
    summary: 'Files of one workspace directory (recursively)',
    access: 'project',
    project: queryScope,
    query: z.object({ projectId: ProjectId, directory: z.string().max(500).default(''), branch: Branch }),
    response: Ok.extend({ files: z.array(WorkspaceFile) }),
    example: { query: { projectId: EXAMPLE_PROJECT, directory: 'environments' } },
  }),
  deleteFile: defineCall({
    method: 'DELETE',
    path: '/api/workspace/delete-file',
    summary: 'Delete one workspace file',
    access: 'project',
    project: { from: 'query', field: 'projectId', write: true },
    query: z.object({
      projectId: ProjectId,
      directory: z.string().max(500).default(''),
      fileName: z.string().max(255),
      branch: Branch,
    }),
    response: Ok,
    example: { query: { projectId: EXAMPLE_PROJECT, directory: 'notes', fileName: 'missing.txt' } },
  }),
  getFileContent: defineCall({
    method: 'GET',
    path: '/api/workspace/get-file-content',
    summary: 'One workspace file’s text',
    access: 'project',
    project: queryScope,
    query: z.object({ projectId: ProjectId, file_path: z.string().max(800), branch: Branch }),
    response: Ok.extend({ content: z.string(), path: z.string() }),
    example: { query: { projectId: EXAMPLE_PROJECT, file_path: 'rehearse.config.json' } },
  }),
  lastUpdated: defineCall({
    method: 'POST',
    path: '/api/workspace/last-updated',
    summary: 'When a workspace file last changed',
    access: 'project',
    project: scope,
    body: projectBody({ directory: z.string().max(500).default(''), file: z.string().max(255) }),
    response: Ok.extend({ lastUpdated: z.string().nullable() }),
    example: { body: { projectId: EXAMPLE_PROJECT, directory: '', file: 'rehearse.config.json' } },
  }),
  getStableVersions: defineCall({
    method: 'GET',
    path: '/api/workspace/get-stable-versions',
    summary: 'Recent commits of a branch a user can go back to',
    access: 'project',
    project: queryScope,
    query: z.object({ projectId: ProjectId, branch: Branch, limit: z.coerce.number().int().min(1).max(200).default(20) }),
    response: Ok.extend({
      versions: z.array(z.object({ commit: z.string(), date: z.string(), author: z.string(), message: z.string() })),
    }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
  uploadMjs: defineCall({
    method: 'POST',
    path: '/api/workspace/upload-mjs',
    summary: 'Write step definition files (features/step_definitions/*.mjs)',
    access: 'project',
    project: writeScope,
    body: projectBody({
      files: z
        .array(z.object({ name: z.string().max(255), content: z.string().max(Limits.workspaceFileMax) }))
        .min(1)
        .max(100),
    }),
    response: Ok.extend({ paths: z.array(z.string()) }),
    example: { body: { projectId: EXAMPLE_PROJECT, files: [{ name: 'matrix.mjs', content: 'export {};\n' }] } },
  }),
  getAllBranches: defineCall({
    method: 'POST',
    path: '/api/workspace/get-all-branches',
    summary: 'Branches of the workspace and the caller’s last active one',
    access: 'project',
    project: scope,
    body: projectBody({}),
    response: Ok.extend({ branches: z.array(z.string()), lastActiveBranch: z.string() }),
    example: { body: { projectId: EXAMPLE_PROJECT } },
  }),
  createNewBranch: defineCall({
    method: 'POST',
    path: '/api/workspace/create-new-branch',
    summary: 'Create a branch from another (private-repository projects)',
    access: 'project',
    project: writeScope,
    body: z.object({
      projectId: ProjectId,
      isPrivateRepo: IsPrivateRepo,
      sourceBranch: z.string().max(200).optional(),
      newBranch: z.string().max(200).optional(),
    }),
    response: Ok.extend({ branch: z.string() }),
    example: { body: { projectId: EXAMPLE_PROJECT, sourceBranch: 'main', newBranch: 'feature/x' } },
  }),
  deleteBranch: defineCall({
    method: 'DELETE',
    path: '/api/workspace/delete-branch',
    summary: 'Delete a branch (never main, never the caller’s current one)',
    access: 'project',
    project: writeScope,
    body: z.object({ projectId: ProjectId, isPrivateRepo: IsPrivateRepo, branch: z.string().max(200) }),
    response: Ok,
    example: { body: { projectId: EXAMPLE_PROJECT, branch: 'feature/x' } },
  }),
  getTestData: defineCall({
    method: 'GET',
    path: '/api/workspace/testData',
    summary: 'Test data rows; secrets masked',
    access: 'project',
    project: queryScope,
    query: z.object({ projectId: ProjectId, branch: Branch, isPrivateRepo: z.string().optional() }),
    response: Ok.extend({ testData: z.array(TestDataRow) }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
  changeTestData: defineCall({
    method: 'POST',
    path: '/api/workspace/changeTestData',
    summary: 'Replace the test data rows; masked secrets keep their stored value',
    access: 'project',
    project: writeScope,
    body: projectBody({
      testData: z
        .array(
          z.object({
            key: RecordKey.max(200).optional(),
            value: z.string().max(10_000).optional(),
            DataType: z.string().optional(),
            environment: RecordKey.max(200).optional(),
          }),
        )
        .max(5000),
    }),
    response: Ok.extend({ testData: z.array(TestDataRow), dropped: z.number().int() }),
    example: { body: { projectId: EXAMPLE_PROJECT, testData: [{ key: 'user', value: 'u', DataType: 'string', environment: '*' }] } },
  }),
  getTotpCode: defineCall({
    method: 'POST',
    path: '/api/workspace/testData/totp',
    summary: 'The current code of a totp test data row',
    access: 'project',
    project: scope,
    body: projectBody({ key: z.string().max(200), environment: RecordKey.max(200) }),
    response: Ok.extend({ code: z.string(), secondsLeft: z.number().int() }),
    example: { body: { projectId: EXAMPLE_PROJECT, key: 'missing', environment: '*' } },
  }),
  revealTestDataSecret: defineCall({
    method: 'POST',
    path: '/api/workspace/testData/reveal',
    summary: 'The stored value of a secret or totp test data row, for the project admin; every reveal is written to the activity log',
    access: 'project',
    project: { ...scope, role: 'ADMIN', roleMessage: Messages.adminRoleRequired },
    body: projectBody({ key: z.string().max(200), environment: RecordKey.max(200) }),
    response: Ok.extend({ value: z.string() }),
    example: { body: { projectId: EXAMPLE_PROJECT, key: 'missing', environment: '*' } },
  }),
  getUnusedStepDefinitions: defineCall({
    method: 'POST',
    path: '/api/workspace/get-unused-step-definitions',
    summary: 'Step definitions no scenario step uses',
    access: 'project',
    project: scope,
    body: projectBody({}),
    response: Ok.extend({ stepDefRefs: z.array(StepDefinitionRef) }),
    example: { body: { projectId: EXAMPLE_PROJECT } },
  }),
  updateWorkspace: defineCall({
    method: 'POST',
    path: '/api/workspace/update-workspace',
    summary: 'Bring the workspace up to date with its private repository now',
    access: 'project',
    project: scope,
    body: projectBody({}),
    response: Ok.extend({ commit: z.string() }),
    example: { body: { projectId: EXAMPLE_PROJECT } },
  }),
  download: defineCall({
    method: 'GET',
    path: '/api/workspace/download',
    summary: 'The workspace at a branch, or at one commit of it, as a tar archive (rehearse pull); headers name the project and commit',
    access: 'project',
    project: queryScope,
    /** With commit, exactly that commit (an execution's pinned one) instead of the branch's head. */
    query: z.object({ projectId: ProjectId, branch: Branch, commit: CommitId.optional() }),
    /** A tar stream, not JSON. */
    response: z.unknown(),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
  removeUnusedSteps: defineCall({
    method: 'POST',
    path: '/api/workspace/remove-unused-steps',
    summary: 'Remove the given unused step definitions (all unused when none given)',
    access: 'project',
    project: writeScope,
    body: projectBody({ input: z.array(StepDefinitionRef).max(5000).default([]) }),
    response: Ok.extend({ removed: z.number().int(), message: z.string() }),
    example: { body: { projectId: EXAMPLE_PROJECT, input: [] } },
  }),
} as const;
