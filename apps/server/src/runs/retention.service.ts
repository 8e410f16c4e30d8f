import type { RetentionCounts, RunRetention } from '@rehearse/contract';
import type { ProjectAccess } from '../http/caller.js';
import type { ArtifactStore } from '../storage/artifacts.js';
import type { RetentionRepo } from './retention.repo.js';

/** An artifact no run names yet is left alone this long: its run is uploaded after it. */
const UNNAMED_ARTIFACT_GRACE_MS = 86_400_000;

/** Ids per statement: well under the 65,535 parameters PostgreSQL binds (deleteRuns binds each twice). */
const BATCH = 1_000;

function* inBatches(ids: string[]): Generator<string[]> {
  for (let at = 0; at < ids.length; at += BATCH) yield ids.slice(at, at + BATCH);
}

export interface RetentionSweep {
  runs: number;
  artifacts: number;
  bytes: number;
}

/**
 * Run retention (issue "team scale"): a project keeps its runs for some days, or its newest N runs,
 * or both; what falls outside goes with its scenarios, comments and reruns. Artifacts (screenshots,
 * traces, JUnit and HTML files) go once no kept run and no pending Code Review fix names them, from
 * the database and, when no other project stores the same bytes, from the disk.
 */
export class RetentionService {
  constructor(
    private readonly repo: RetentionRepo,
    private readonly artifacts: ArtifactStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async overview(access: ProjectAccess): Promise<{ retention: RunRetention; stored: RetentionCounts; wouldDelete: RetentionCounts }> {
    const projectId = access.project.id;
    const retention = await this.repo.ruleOf(projectId);
    return { retention, stored: await this.repo.storedBy(projectId), wouldDelete: await this.preview(access, retention) };
  }

  /** What each project stores, the largest on disk first (instance administrators). */
  async storedByProject(): Promise<({ projectId: string; name: string } & RetentionCounts)[]> {
    return this.repo.storedByProject();
  }

  async storedBy(projectId: string): Promise<RetentionCounts> {
    return this.repo.storedBy(projectId);
  }

  /** What `rule` would delete now: the dry run the settings page shows before saving. */
  async preview(access: ProjectAccess, rule: RunRetention): Promise<RetentionCounts> {
    const projectId = access.project.id;
    return this.repo.countsPastRule(projectId, rule, this.now());
  }

  async save(access: ProjectAccess, rule: RunRetention): Promise<{ retention: RunRetention; wouldDelete: RetentionCounts }> {
    await this.repo.saveRule(access.project.id, rule);
    return { retention: rule, wouldDelete: await this.preview(access, rule) };
  }

  /** Applies every project's rule, then forgets the artifacts nothing names any more. */
  async sweep(): Promise<RetentionSweep> {
    let deletedRuns = 0;
    for (const { projectId, rule } of await this.repo.projectsWithRules()) {
      // Oldest first, a batch per statement: a year of runs is tens of thousands, more ids than one
      // statement may bind, and a sweep stopped halfway has still deleted whole runs.
      for (const batch of inBatches(await this.repo.runsPastRule(projectId, rule, this.now())))
        deletedRuns += await this.repo.deleteRuns(projectId, batch);
    }
    const uploadedBefore = new Date(this.now().getTime() - UNNAMED_ARTIFACT_GRACE_MS);
    const forgotten = await this.repo.deleteUnnamedArtifacts(uploadedBefore);
    const ids = [...new Set(forgotten.map((artifact) => artifact.id))];
    const stillStored = new Set<string>();
    for (const batch of inBatches(ids)) for (const id of await this.repo.storedArtifactIds(batch)) stillStored.add(id);
    for (const id of ids) if (!stillStored.has(id)) await this.artifacts.delete(id, uploadedBefore);
    return { runs: deletedRuns, artifacts: forgotten.length, bytes: forgotten.reduce((sum, artifact) => sum + artifact.size, 0) };
  }
}
