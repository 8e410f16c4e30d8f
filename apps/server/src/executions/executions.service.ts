import {
  type ExecutionInput as ExecutionInputSchema,
  type Schedule,
  scenarioCommand,
  scenarioHasAnyTag,
  scheduleText,
  type Execution,
  type Flow,
  type ScenarioGroup,
} from '@rehearse/contract';
import type { z } from 'zod';
import type { Caller, ProjectAccess } from '../http/caller.js';
import type { FeatureListing, FeaturesService } from '../workspace/features.service.js';
import type { WorkspaceService } from '../workspace/workspace.service.js';
import { ExecutionRefused } from './execution-errors.js';
import type { ExecutionRow, ExecutionsRepo } from './executions.repo.js';
import type { ExecutionJobsRepo, ExecutionRunRow } from './execution-jobs.repo.js';

export type { ExecutionRow } from './executions.repo.js';

/** Every scenario having any of the tags (spec 02 §4), in workspace order. */
export function scenariosWithTags(
  features: FeatureListing['features'],
  tags: readonly string[],
): { featureIndex: number; scenarioIndex: number; featurePath: string; scenarioName: string }[] {
  return features.flatMap((feature, featureIndex) =>
    feature.summary.scenarios.flatMap((scenario, scenarioIndex) =>
      scenarioHasAnyTag(scenario, tags) ? [{ featureIndex, scenarioIndex, featurePath: feature.path, scenarioName: scenario.name }] : [],
    ),
  );
}
type ParsedInput = Omit<z.output<typeof ExecutionInputSchema>, 'projectId'>;
type StoredFlow = Execution['flows'][number];

function creatorName(row: { firstName: string | null; lastName: string | null; email: string | null } | undefined): string {
  // Member name, else email, else 'Unknown User' (spec 02 §6).
  const name = `${row?.firstName ?? ''} ${row?.lastName ?? ''}`.trim();
  return name || row?.email || 'Unknown User';
}

/**
 * Executions: the planner's model. Groups' scenarios are always recomputed here from their tags
 * against the workspace at the execution's branch, with one runner command each.
 */
export class ExecutionsService {
  constructor(
    private readonly executions: ExecutionsRepo,
    private readonly workspaces: WorkspaceService,
    private readonly features: FeaturesService,
    private readonly runs: Pick<ExecutionJobsRepo, 'latestRunsOfProject' | 'latestRunOf'>,
  ) {}

  async projectOf(id: string): Promise<string | undefined> {
    return this.executions.projectOf(id);
  }

  async list(projectId: string): Promise<Execution[]> {
    const [rows, latest] = await Promise.all([this.executions.listWithCreators(projectId), this.runs.latestRunsOfProject(projectId)]);
    return rows.map((row) => this.toDto(row.execution, creatorName(row), latest.get(row.execution.id)));
  }

  async get(id: string): Promise<Execution> {
    const row = await this.executions.findWithCreator(id);
    if (!row) throw new ExecutionRefused('not-found');
    return this.toDto(row.execution, creatorName(row), await this.runs.latestRunOf(id));
  }

  async create(caller: Caller, access: ProjectAccess, input: ParsedInput): Promise<Execution> {
    if (input.enabled && !input.schedule) throw new ExecutionRefused('schedule-required');
    const flows = await this.resolveFlows(caller, access, input);
    const row = await this.executions.insert({
      projectId: access.project.id,
      userId: caller.user.id,
      name: input.name,
      env: input.env,
      branch: input.branch,
      flows,
      schedule: input.schedule ?? null,
      scheduleSetAt: input.schedule ? new Date() : null,
      isSingleThreaded: input.isSingleThreaded,
      enabled: input.enabled,
    });
    return this.get(row.id);
  }

  async update(caller: Caller, access: ProjectAccess, id: string, input: ParsedInput, scheduleChanged: boolean): Promise<Execution> {
    const current = await this.row(id);
    if (current.running) throw new ExecutionRefused('running');
    if (input.enabled && !input.schedule) throw new ExecutionRefused('schedule-required');
    const flows = await this.resolveFlows(caller, access, input);
    await this.executions.update(id, {
      name: input.name,
      env: input.env,
      branch: input.branch,
      flows,
      schedule: input.schedule ?? null,
      ...(scheduleChanged || JSON.stringify(input.schedule ?? null) !== JSON.stringify(current.schedule)
        ? { scheduleSetAt: input.schedule ? new Date() : null }
        : {}),
      isSingleThreaded: input.isSingleThreaded,
      enabled: input.enabled,
      updatedAt: new Date(),
    });
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const current = await this.row(id);
    if (current.running) throw new ExecutionRefused('running');
    await this.executions.deleteIdle(id);
  }

  /** Enables the schedule; an execution without one cannot be enabled (spec 02 §4). */
  async schedule(id: string, schedule: z.output<typeof Schedule> | undefined): Promise<Execution> {
    const current = await this.row(id);
    const next = schedule ?? (current.schedule as z.output<typeof Schedule> | null);
    if (!next) throw new ExecutionRefused('schedule-required');
    await this.executions.update(id, {
      schedule: next,
      enabled: true,
      updatedAt: new Date(),
      ...(schedule ? { scheduleSetAt: new Date() } : {}),
    });
    return this.get(id);
  }

  async deschedule(id: string): Promise<Execution> {
    await this.row(id);
    await this.executions.update(id, { enabled: false, updatedAt: new Date() });
    return this.get(id);
  }

  /**
   * maxExecutionThreads minus, for each running execution, the sum over its flows of the flow's
   * largest group thread count (1 when single-threaded) — DESIGN §11.
   */
  async freeThreads(access: ProjectAccess): Promise<number> {
    const running = await this.executions.runningFlowsOf(access.project.id);
    const taken = running.reduce(
      (sum, row) =>
        sum +
        (row.flows as StoredFlow[]).reduce(
          (flowSum, flow) => flowSum + (row.single ? 1 : Math.max(0, ...flow.scenarioGroups.map((group) => group.threadCount))),
          0,
        ),
      0,
    );
    return Math.max(0, access.project.maxExecutionThreads - taken);
  }

  async row(id: string): Promise<ExecutionRow> {
    const row = await this.executions.findById(id);
    if (!row) throw new ExecutionRefused('not-found');
    return row;
  }

  /** Checks threads and tags, and fills every group's scenarios from its tags. */
  private async resolveFlows(caller: Caller, access: ProjectAccess, input: ParsedInput): Promise<StoredFlow[]> {
    const max = access.project.maxExecutionThreads;
    if (max <= 0) throw new ExecutionRefused('no-threads');
    const ws = await this.workspaces.open(caller, access, input.branch);
    const { features, allTags } = await this.features.listing(await this.workspaces.read(ws));
    const known = new Set(allTags);
    return input.flows.map((flow: Flow) => ({
      ...flow,
      scenarioGroups: flow.scenarioGroups.map((group: ScenarioGroup) => {
        if (group.threadCount > max) throw new ExecutionRefused('thread-count-too-high', String(max));
        const tags = group.tags.map((tag) => (tag.startsWith('@') ? tag : `@${tag}`));
        const unknown = tags.find((tag) => !known.has(tag));
        if (unknown) throw new ExecutionRefused('unknown-tag', unknown);
        const scenarios = scenariosWithTags(features, tags).map(({ featureIndex, scenarioIndex, featurePath, scenarioName }) => ({
          featureIndex,
          scenarioIndex,
          command: scenarioCommand(input.env, featurePath, scenarioName),
        }));
        return { ...group, tags, scenarios };
      }),
    }));
  }

  private toDto(row: ExecutionRow, creator: string, lastRun: ExecutionRunRow | undefined): Execution {
    const schedule = (row.schedule as z.output<typeof Schedule> | null) ?? null;
    return {
      _id: row.id,
      id: row.id,
      projectId: row.projectId,
      userId: row.userId ?? '',
      creator,
      name: row.name,
      env: row.env,
      branch: row.branch,
      flows: row.flows as StoredFlow[],
      schedule,
      isSingleThreaded: row.isSingleThreaded,
      enabled: row.enabled,
      running: row.running,
      displayStatus: row.running ? 'Active' : schedule ? 'Planned' : 'Draft',
      lastRun: lastRun ? { runId: lastRun.runId, state: lastRun.state, at: (lastRun.finishedAt ?? lastRun.createdAt).toISOString() } : null,
      scheduleText: scheduleText(schedule),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}
