import {
  aiCalls,
  scenarioJobCalls,
  workspaceCalls,
  type FeatureSummary,
  type LiveStep,
  type ScenarioJob,
  type ScenarioIdea,
} from '@rehearse/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';
import { listenInProjectRoom } from '../../lib/socket';
import { scopeBody, scopeKey, type WorkspaceScope } from '../workspace/scope';
import { BUILT_IN_CHOICES, projectChoices, type GherkinHelp } from './step-help';

/** Typing pauses this long before the editor asks which steps are undefined. */
const STEP_HELP_DEBOUNCE_MS = 400;

/** Query keys of the features page, per project and branch. */
export const featureKeys = {
  all: ['features'] as const,
  project: (projectId: string) => [...featureKeys.all, projectId] as const,
  list: (scope: WorkspaceScope) => [...featureKeys.project(scope.projectId), scopeKey(scope), 'list'] as const,
  steps: (scope: WorkspaceScope, feature: string, scenario: string) =>
    [...featureKeys.project(scope.projectId), scopeKey(scope), 'steps', feature, scenario] as const,
  job: (jobId: string) => ['scenario-job', jobId] as const,
  lastUpdated: (scope: WorkspaceScope, path: string) =>
    [...featureKeys.project(scope.projectId), scopeKey(scope), 'last-updated', path] as const,
};

/** When a workspace file last changed (spec 02 §7 last-updated): the Code output's last-generated date. */
export function useLastUpdated(scope: WorkspaceScope, path: string) {
  const slash = path.lastIndexOf('/');
  return useQuery({
    queryKey: featureKeys.lastUpdated(scope, path),
    queryFn: async () =>
      (
        await api.call(workspaceCalls.lastUpdated, {
          body: { ...scopeBody(scope), directory: slash < 0 ? '' : path.slice(0, slash), file: path.slice(slash + 1) },
        })
      ).lastUpdated,
    enabled: scope.ready,
  });
}

export interface FeatureList {
  features: FeatureSummary[];
  allTags: string[];
  lastActiveFeatureIndex: number | null;
  lastActiveScenarioIndex: number | null;
}

export const featureQueries = {
  list: (scope: WorkspaceScope) =>
    queryOptions({
      queryKey: featureKeys.list(scope),
      queryFn: async (): Promise<FeatureList> => {
        const { features, allTags, lastActiveFeatureIndex, lastActiveScenarioIndex } = await api.call(workspaceCalls.getFeatureList, {
          body: scopeBody(scope),
        });
        return { features, allTags, lastActiveFeatureIndex, lastActiveScenarioIndex };
      },
    }),
  steps: (scope: WorkspaceScope, feature: string, scenario: string) =>
    queryOptions({
      queryKey: featureKeys.steps(scope, feature, scenario),
      queryFn: async () =>
        (
          await api.call(workspaceCalls.getStepCodeByScenario, {
            body: { ...scopeBody(scope), featureName: feature, scenarioName: scenario },
          })
        ).steps,
      // Step code changes outside this page too (recorder, AI, git): always refetch on arrival.
      staleTime: 0,
    }),
};

/**
 * The editor's step help for a text: its undefined steps with what they may have meant, and the
 * project's own step patterns. The text travels with the answer, so an editor whose text moved on
 * meanwhile knows the lines no longer fit; the previous answer stays while the next one loads.
 */
export function useStepHelp(scope: WorkspaceScope, text: string, enabled = true) {
  return useQuery({
    queryKey: [...featureKeys.project(scope.projectId), scopeKey(scope), 'step-help', text] as const,
    queryFn: async () => ({ text, ...(await api.call(workspaceCalls.checkSteps, { body: { ...scopeBody(scope), text } })) }),
    enabled: scope.ready && enabled,
    placeholderData: keepPreviousData,
  });
}

/** What the Gherkin editor needs for a text being edited: completion choices and the undefined steps, asked for once typing pauses. */
export function useGherkinHelp(scope: WorkspaceScope, text: string): GherkinHelp {
  const help = useStepHelp(scope, useDebouncedValue(text, STEP_HELP_DEBOUNCE_MS));
  const projectSteps = help.data?.projectSteps;
  const choices = useMemo(() => [...BUILT_IN_CHOICES, ...projectChoices(projectSteps ?? [])], [projectSteps]);
  return useMemo(
    () => ({ choices, undefinedSteps: help.data?.undefinedSteps ?? [], forText: help.data?.text ?? '' }),
    [choices, help.data],
  );
}

/** Every feature of the scope's branch with its scenarios and the project's tags. */
export function useFeatureList(scope: WorkspaceScope) {
  return useQuery({ ...featureQueries.list(scope), enabled: scope.ready });
}

/** The steps of one scenario with the code that implements each. */
export function useScenarioSteps(scope: WorkspaceScope, feature: string | null, scenario: string | null) {
  return useQuery({
    ...featureQueries.steps(scope, feature ?? '', scenario ?? ''),
    enabled: scope.ready && feature !== null && scenario !== null,
  });
}

/** Puts a changed feature into the cached list at once (the answer carries the whole feature). */
function useFeatureListCache(scope: WorkspaceScope) {
  const queryClient = useQueryClient();
  return {
    replace(oldName: string, feature: FeatureSummary | null) {
      queryClient.setQueryData<FeatureList>(featureKeys.list(scope), (list) => {
        if (!list) return list;
        const at = list.features.findIndex((f) => f.name === oldName);
        const features = [...list.features];
        if (feature === null) {
          if (at >= 0) features.splice(at, 1);
        } else if (at >= 0) features[at] = feature;
        else features.push(feature);
        return { ...list, features };
      });
    },
    refresh: () => queryClient.invalidateQueries({ queryKey: featureKeys.project(scope.projectId) }),
  };
}

export interface PushScenarioInput {
  /** Feature file name without `.feature`. */
  feature: string;
  /** The scenario's Gherkin text. */
  text: string;
  /** Scenario to replace; absent adds a new one. */
  scenarioIndex?: number;
  /** Description of a feature being created. */
  description?: string;
}

/** Saves one scenario's text (replacing or adding it); creates the feature when it is new. */
export function usePushScenario(scope: WorkspaceScope) {
  const cache = useFeatureListCache(scope);
  return useMutation({
    mutationFn: ({ feature, text, scenarioIndex, description }: PushScenarioInput) =>
      api.call(workspaceCalls.pushScenario, {
        body: {
          ...scopeBody(scope),
          name: feature,
          data: text,
          scenarioIndex: scenarioIndex ?? -1,
          ...(description ? { description } : {}),
        },
      }),
    onSuccess: ({ feature }) => {
      cache.replace(feature.name, feature);
      void cache.refresh();
      logActivity({ type: 'scenario.save', detail: { feature: feature.name } });
    },
  });
}

/** Renames a feature (file and Feature: line). */
export function useRenameFeature(scope: WorkspaceScope) {
  const cache = useFeatureListCache(scope);
  return useMutation({
    mutationFn: ({ oldName, newName }: { oldName: string; newName: string }) =>
      api.call(workspaceCalls.renameFeature, { body: { ...scopeBody(scope), oldName, newName } }),
    onSuccess: ({ feature }, { oldName }) => {
      cache.replace(`${oldName}.feature`, feature);
      void cache.refresh();
    },
  });
}

/** Renames one scenario of a feature. */
export function useRenameScenario(scope: WorkspaceScope) {
  const cache = useFeatureListCache(scope);
  return useMutation({
    mutationFn: (input: { featureName: string; scenarioIndex: number; newName: string }) =>
      api.call(workspaceCalls.renameScenario, { body: { ...scopeBody(scope), ...input } }),
    onSuccess: ({ feature }) => {
      cache.replace(feature.name, feature);
      void cache.refresh();
    },
  });
}

/** Replaces one scenario's tags. */
export function useSetScenarioTags(scope: WorkspaceScope) {
  const cache = useFeatureListCache(scope);
  return useMutation({
    mutationFn: (input: { featureName: string; scenarioIndex: number; tags: string[] }) =>
      api.call(workspaceCalls.setScenarioTags, { body: { ...scopeBody(scope), ...input } }),
    onSuccess: ({ feature }) => {
      cache.replace(feature.name, feature);
      void cache.refresh();
    },
  });
}

/** Deletes one scenario; the only scenario of a feature takes the feature with it. */
export function useDeleteScenario(scope: WorkspaceScope) {
  const cache = useFeatureListCache(scope);
  return useMutation({
    mutationFn: (input: { featureName: string; scenarioIndex: number }) =>
      api.call(workspaceCalls.deleteScenario, { body: { ...scopeBody(scope), ...input } }),
    onSuccess: () => void cache.refresh(),
  });
}

/** Deletes a whole feature file. */
export function useDeleteFeature(scope: WorkspaceScope) {
  const cache = useFeatureListCache(scope);
  return useMutation({
    mutationFn: (name: string) => api.call(workspaceCalls.deleteFeature, { body: { ...scopeBody(scope), name } }),
    onSuccess: (_answer, name) => {
      cache.replace(`${name}.feature`, null);
      void cache.refresh();
    },
  });
}

/** Remembers the feature and scenario the user looks at, so the page opens there next time. */
export function useRememberScenario(scope: WorkspaceScope) {
  return useMutation({
    mutationFn: ({ featureIndex, scenarioIndex }: { featureIndex: number; scenarioIndex: number }) =>
      api.call(workspaceCalls.updateLastActiveWorkspace, { body: { ...scopeBody(scope), featureIndex, scenarioIndex } }),
  });
}

/** Writes a step definition file (the step code editor's Save). */
export function useSaveStepFile(scope: WorkspaceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ path, content }: { path: string; content: string }) =>
      api.call(workspaceCalls.uploadMjs, {
        body: { ...scopeBody(scope), files: [{ name: path.slice(path.lastIndexOf('/') + 1), content }] },
      }),
    onSuccess: () => {
      // Every scenario's step list shows code of shared files, and unused steps change too.
      void queryClient.invalidateQueries({ queryKey: featureKeys.project(scope.projectId) });
      void queryClient.invalidateQueries({ queryKey: ['unused-steps'] });
      logActivity({ type: 'steps.save' });
    },
  });
}

/** Queues "Run scenario" on the server's workers. */
export function useRunScenario(scope: WorkspaceScope) {
  return useMutation({
    mutationFn: (input: { featureName: string; scenarioName: string; environment: string; heal?: boolean }) =>
      api.call(scenarioJobCalls.runScenario, { body: { ...scopeBody(scope), ...input } }),
    onSuccess: ({ job }) => logActivity({ type: 'scenario.run', detail: { jobId: job.id } }),
  });
}

/**
 * A scenario page is open: the server starts a runner for the branch in the background, so the
 * first "Run scenario" click finds it warm (a click otherwise waits for the workspace, the support
 * code and the browser). Best effort: a refusal or a server without warm runners changes nothing.
 */
export function useWarmUpRunner(scope: WorkspaceScope, enabled: boolean) {
  const { projectId, branch, ready } = scope;
  useEffect(() => {
    if (!enabled || !ready) return;
    void api.call(scenarioJobCalls.warmUp, { body: { projectId, ...(branch ? { branch } : {}) } }).catch(() => undefined);
  }, [projectId, branch, ready, enabled]);
}

/**
 * How often a followed job is read again besides its socket events: only a fallback for an event
 * missed while the socket reconnected, so slow.
 */
const JOB_FALLBACK_POLL_MS = 10_000;

/**
 * Follows a "Run scenario" job until it has finished: read again on each `scenario_job` event of
 * the job, heard in the project's socket room, and slowly polled besides. The room is joined here
 * too (a page outside the project screens follows jobs as well) and never left here: the project
 * screens' layout, which joined it first, leaves it.
 */
export function useScenarioJob(projectId: string, jobId: string | null) {
  const client = useQueryClient();
  useEffect(() => {
    if (!jobId || !projectId) return;
    return listenInProjectRoom(projectId, 'scenario_job', (payload) => {
      if (payload.jobId === jobId) void client.invalidateQueries({ queryKey: featureKeys.job(jobId) });
    });
  }, [projectId, jobId, client]);
  return useQuery({
    queryKey: featureKeys.job(jobId ?? ''),
    queryFn: async (): Promise<ScenarioJob> => (await api.call(scenarioJobCalls.scenarioJob, { params: { jobId: jobId! } })).job,
    enabled: jobId !== null,
    staleTime: 0,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === undefined || state === 'queued' || state === 'running' ? JOB_FALLBACK_POLL_MS : false;
    },
  });
}

/**
 * The step a followed "Run scenario" job is at, as its runner says it starts and ends each one,
 * and the latest screenshot an ended step carried (heard in the project's socket room; a job on a
 * server without warm runners sends none). Heard from the moment the page shows the button, for
 * every job of the project: a warm runner may run a short scenario before the click's answer has
 * told the page which job is its own.
 */
export function useLiveStep(projectId: string, jobId: string | null): { step?: LiveStep; screenshot?: string } {
  const [live, setLive] = useState<Map<string, { step: LiveStep; screenshot?: string }>>(() => new Map());
  useEffect(() => {
    if (!projectId) return;
    return listenInProjectRoom(projectId, 'scenario_job_step', (payload) => {
      setLive((before) => {
        const earlier = before.get(payload.jobId);
        const screenshot = payload.step.screenshot ?? earlier?.screenshot;
        const next = new Map([...before].filter(([id]) => id !== payload.jobId).slice(-(LIVE_JOBS_KEPT - 1)));
        next.set(payload.jobId, { step: payload.step, ...(screenshot ? { screenshot } : {}) });
        return next;
      });
    });
  }, [projectId]);
  const mine = jobId ? live.get(jobId) : undefined;
  return mine ? { step: mine.step, ...(mine.screenshot ? { screenshot: mine.screenshot } : {}) } : {};
}

/** How many jobs' live steps a page keeps (others of the project may run while it waits for its own). */
const LIVE_JOBS_KEPT = 5;

/** The AI engine's rewrite of one step function (a quick prompt or free text); answers the new file. */
export function useGenerateStepCode(projectId: string) {
  return useMutation({
    mutationFn: async (input: { request: string; functionName: string; fileContent: string }) =>
      (
        await api.call(aiCalls.generateStepCode, {
          body: {
            projectId,
            user_request: input.request,
            function_name: input.functionName,
            mjs_file_content: input.fileContent,
          },
        })
      ).result,
  });
}

/** Generates and saves code for one step from its text. */
export function useGenerateStep(scope: WorkspaceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { featureName: string; scenarioName: string; stepText: string }) =>
      api.call(aiCalls.generateStep, {
        body: { projectId: scope.projectId, ...(scope.branch ? { branch: scope.branch } : {}), ...input },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: featureKeys.project(scope.projectId) }),
  });
}

/** Scenario ideas for the add-scenario wizard. */
export function useScenarioIdeas(projectId: string) {
  return useMutation({
    mutationFn: async (description: string): Promise<ScenarioIdea[]> => {
      const answer = await api.call(aiCalls.scenarioIdeas, { body: { projectId, description } });
      if (answer.error) throw new Error(answer.error);
      return answer.result;
    },
  });
}

/** Turns plain-English lines into a saved scenario of built-in steps. */
/** How the flow reads, line by line, with a question for each clause nothing reads; saves nothing. */
export function useScenarioReading(scope: WorkspaceScope) {
  return useMutation({
    mutationFn: (flow: string[]) => api.call(aiCalls.scenarioReading, { body: { projectId: scope.projectId, flow } }),
  });
}

export function useScenarioCreation(scope: WorkspaceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { featureName: string; name: string; flow: string[]; parameters: Record<string, string> }) =>
      api.call(aiCalls.scenarioCreation, {
        body: { projectId: scope.projectId, ...(scope.branch ? { branch: scope.branch } : {}), ...input },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: featureKeys.project(scope.projectId) }),
  });
}
