import { authCalls, Headers, unusedStepsDeletedMessage, workspaceCalls as calls } from '@rehearse/contract';
import type { ProjectsRepo } from '../auth/projects.repo.js';
import { toProjectDto, type ProjectsService } from '../auth/projects.service.js';
import type { FastifyReply } from 'fastify';
import type { CallRoute } from '../http/call-router.js';
import { badRequest, conflict, notFound, type AppError } from '../http/errors.js';
import { WorkspaceRefused, type WorkspaceRefusal } from './workspace-errors.js';
import type { BranchesService } from './branches.service.js';
import type { EnvironmentsService } from './environments.service.js';
import type { FeaturesService } from './features.service.js';
import type { FilesService } from './files.service.js';
import type { StepsService } from './steps/steps.service.js';
import type { PrivateRepoService } from './private-repo.service.js';
import type { TestDataService } from './test-data.service.js';
import type { WorkspaceService } from './workspace.service.js';

/**
 * Sends JSON text built by a service. It bypasses the response schema check, so only answers the
 * service assembled from contract-typed values may come through here.
 */
function sendJson(reply: FastifyReply, json: string): never {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(json) as never;
}

export interface WorkspaceRouteServices {
  workspaces: WorkspaceService;
  environments: EnvironmentsService;
  branches: BranchesService;
  files: FilesService;
  testData: TestDataService;
  features: FeaturesService;
  steps: StepsService;
  privateRepos: PrivateRepoService;
  projects: ProjectsService;
  projectsRepo: ProjectsRepo;
}

/** The workspace service's calls (spec 02 §7): each opens the workspace at the requested branch. */
const REFUSAL_STATUS: Record<WorkspaceRefusal, (message: string) => AppError> = {
  'branch-missing': notFound,
  'commit-missing': notFound,
  'file-not-json': badRequest,
  'changed-while-saving': conflict,
  'file-too-large': badRequest,
  'binary-content': badRequest,
  'file-not-utf8': badRequest,
};

/** The route edge of the workspace store's refusals: each becomes its status with the sentence it reads as. */
export function workspaceErrorToHttp(error: unknown): AppError | undefined {
  return error instanceof WorkspaceRefused ? REFUSAL_STATUS[error.reason](error.message) : undefined;
}

export function registerWorkspaceRoutes(route: CallRoute, s: WorkspaceRouteServices): void {
  const open = s.workspaces.open.bind(s.workspaces);

  route(calls.getEnvList, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.environments.list(await open(caller, access, body.branch))),
  }));
  route(calls.pushEnv, async ({ caller, access, body }) => ({
    status: true,
    env: await s.environments.create(await open(caller, access, body.branch), body.name, body.data),
  }));
  route(calls.editEnv, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.environments.edit(await open(caller, access, body.branch), body.name, body.newName, body.newData)),
  }));
  route(calls.deleteEnv, async ({ caller, access, body }) => {
    await s.environments.delete(await open(caller, access, body.branch), body.name);
    return { status: true };
  });
  route(calls.updateLastActiveWorkspace, async ({ caller, access, body }) => {
    const ws = await open(caller, access, body.branch);
    await s.workspaces.state.update(ws.projectId, caller.user.id, {
      ...(body.env !== undefined ? { lastEnv: body.env } : {}),
      ...(body.branch !== undefined ? { lastBranch: ws.branch } : {}),
      ...(body.featureIndex !== undefined ? { lastFeatureIndex: body.featureIndex } : {}),
      ...(body.scenarioIndex !== undefined ? { lastScenarioIndex: body.scenarioIndex } : {}),
    });
    return { status: true };
  });

  // A project's workspace is made and removed with the project: auth's calls, registered here
  // because they reach the workspace store, which auth (below it) does not import.
  route(authCalls.createWorkspace, async ({ caller, access }) => {
    const existed = s.workspaces.store.exists(access.project.id);
    await open(caller, access);
    await s.projects.createWorkspace(access.project.id);
    return { status: true, created: !existed };
  });
  route(authCalls.deleteProject, async ({ caller, access }) => {
    await s.projects.delete(caller.user, access);
    await s.workspaces.store.remove(access.project.id);
    return { status: true };
  });

  route(authCalls.getAllPrivateRepoInAProject, async ({ access }) => ({
    status: true,
    repos: await s.privateRepos.describe(access.project.id),
  }));
  route(authCalls.addPrivateRepo, async ({ caller, access, body }) => {
    const ws = await open(caller, access);
    await s.privateRepos.connect(ws.git, ws.projectId, body, caller.user.id);
    const project = await s.projectsRepo.findForUser(ws.projectId, caller.user.id);
    if (!project) throw new Error('project vanished while connecting its repository');
    return { status: true, project: toProjectDto(project) };
  });
  route(calls.updateWorkspace, async ({ caller, access, body }) => {
    const ws = await open(caller, access, body.branch);
    s.privateRepos.forget(ws.projectId);
    return { status: true, commit: (await s.workspaces.read(ws)).commit };
  });
  route(calls.download, async ({ caller, access, query, reply }) => {
    const ws = await open(caller, access, query.branch);
    // A worker asks for its execution's pinned commit; anyone who may read the branch may read it.
    const snapshot = await s.workspaces.readAt(ws, query.commit);
    return reply
      .type('application/x-tar')
      .header('content-disposition', `attachment; filename="workspace-${ws.branch.replace(/[^\w.-]/g, '_')}.tar"`)
      .header(Headers.projectId, ws.projectId)
      .header('x-rehearse-commit', snapshot.commit)
      .header('x-rehearse-branch', ws.branch)
      .send(ws.git.archive(snapshot.commit));
  });

  route(calls.getAllBranches, async ({ caller, access }) => ({
    status: true,
    ...(await s.branches.list(await open(caller, access))),
  }));
  route(calls.createNewBranch, async ({ caller, access, body }) => ({
    status: true,
    branch: await s.branches.create(await open(caller, access), body.sourceBranch, body.newBranch),
  }));
  route(calls.deleteBranch, async ({ caller, access, body }) => {
    await s.branches.delete(await open(caller, access), body.branch);
    return { status: true };
  });

  route(calls.pushFile, async ({ caller, access, body }) => {
    const { path } = await s.files.push(await open(caller, access, body.branch), body.directory, body.file.name, body.file.content);
    return { status: true, path };
  });
  route(calls.getFiles, async ({ caller, access, query }) => ({
    status: true,
    files: await s.files.list(await open(caller, access, query.branch), query.directory),
  }));
  route(calls.deleteFile, async ({ caller, access, query }) => {
    await s.files.delete(await open(caller, access, query.branch), query.directory, query.fileName);
    return { status: true };
  });
  route(calls.getFileContent, async ({ caller, access, query }) => ({
    status: true,
    ...(await s.files.content(await open(caller, access, query.branch), query.file_path)),
  }));
  route(calls.lastUpdated, async ({ caller, access, body }) => ({
    status: true,
    lastUpdated: await s.files.lastUpdated(await open(caller, access, body.branch), body.directory, body.file),
  }));
  route(calls.getStableVersions, async ({ caller, access, query }) => ({
    status: true,
    versions: await s.files.versions(await open(caller, access, query.branch), query.limit),
  }));

  route(calls.getTestData, async ({ caller, access, query }) => ({
    status: true,
    testData: await s.testData.list(await open(caller, access, query.branch)),
  }));
  route(calls.changeTestData, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.testData.change(await open(caller, access, body.branch), body.testData)),
  }));
  route(calls.revealTestDataSecret, async ({ caller, access, body }) => ({
    status: true,
    value: await s.testData.reveal(await open(caller, access, body.branch), caller.user.id, body.key, body.environment),
  }));
  route(calls.getTotpCode, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.testData.totp(await open(caller, access, body.branch), body.key, body.environment)),
  }));

  // The two largest answers of the features page are sent as JSON cached per version of the
  // features folder: serializing 5,000 scenarios on every request cost more than finding them.
  route(calls.getFeatureList, async ({ caller, access, body, reply }) =>
    sendJson(reply, await s.features.listJson(await open(caller, access, body.branch))),
  );
  route(calls.featuresCount, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.features.count(await open(caller, access, body.branch))),
  }));
  route(calls.pushScenario, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.features.pushScenario(await open(caller, access, body.branch), body)),
  }));
  route(calls.deleteFeature, async ({ caller, access, body }) => {
    await s.features.deleteFeature(await open(caller, access, body.branch), body.name);
    return { status: true };
  });
  route(calls.deleteScenario, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.features.deleteScenario(await open(caller, access, body.branch), body.featureName, body.scenarioIndex)),
  }));
  route(calls.renameFeature, async ({ caller, access, body }) => ({
    status: true,
    feature: await s.features.renameFeature(await open(caller, access, body.branch), body.oldName, body.newName),
  }));
  route(calls.renameScenario, async ({ caller, access, body }) => ({
    status: true,
    feature: await s.features.renameScenario(await open(caller, access, body.branch), body.featureName, body.scenarioIndex, body.newName),
  }));
  route(calls.setScenarioTags, async ({ caller, access, body }) => ({
    status: true,
    feature: await s.features.setScenarioTags(await open(caller, access, body.branch), body.featureName, body.scenarioIndex, body.tags),
  }));

  route(calls.storeAndGetSteps, async ({ caller, access, body, reply }) =>
    sendJson(reply, await s.steps.allStepsJson(await open(caller, access, body.branch))),
  );
  route(calls.getStepCodeByScenario, async ({ caller, access, body }) => ({
    status: true,
    steps: await s.steps.stepsOfScenario(await open(caller, access, body.branch), body.featureName, body.scenarioName),
  }));
  route(calls.checkSteps, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.steps.check(await open(caller, access, body.branch), body.text)),
  }));
  route(calls.uploadMjs, async ({ caller, access, body }) => ({
    status: true,
    paths: await s.steps.uploadMjs(await open(caller, access, body.branch), body.files),
  }));
  route(calls.getUnusedStepDefinitions, async ({ caller, access, body }) => ({
    status: true,
    stepDefRefs: await s.steps.unused(await open(caller, access, body.branch)),
  }));
  route(calls.removeUnusedSteps, async ({ caller, access, body }) => {
    const removed = await s.steps.removeUnused(await open(caller, access, body.branch), body.input);
    return { status: true, removed, message: unusedStepsDeletedMessage(removed) };
  });
}
