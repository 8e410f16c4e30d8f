import { Messages, type OversightItem, type RunReport } from '@rehearse/contract';
import type { Caller, ProjectAccess } from '../http/caller.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import type { RunsRepo } from '../runs/runs.repo.js';
import type { WorkspaceService } from '../workspace/workspace.service.js';
import type { OversightItemRow, OversightRepo } from './oversight.repo.js';

/**
 * One healed entry of a locator file: its key, the new candidates (best first) and fingerprint,
 * and for the reviewer where it happened (the step's number and text, the element's name, what
 * was found instead); those last ones only describe the change.
 */
export interface LocatorChange {
  key: string;
  locators: Array<Record<string, unknown>>;
  fingerprint?: Record<string, unknown> | undefined;
  stepNumber?: number | undefined;
  step?: string | undefined;
  element?: string | undefined;
  foundAs?: string | undefined;
}

/** Only locator files are ever rewritten by a fix (DESIGN §8: a reviewed fix is a small data diff). */
const LOCATOR_FILE = /^features\/step_definitions\/locators\/[\w./-]+\.json$/;

/**
 * The new contents of a locator file with the healed entries: the new candidates go first (the
 * next plain run finds the element at once), the old ones stay behind them, and the fingerprint
 * becomes the one healing matched, so the next healing scores against the current page.
 */
export function applyLocatorChanges(content: string, changes: readonly LocatorChange[]): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw conflict(Messages.oversightConflict);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw conflict(Messages.oversightConflict);
  const file = parsed as Record<string, { locators?: unknown[]; fingerprint?: unknown }>;
  for (const change of changes) {
    const entry = file[change.key];
    if (!entry || typeof entry !== 'object') throw conflict(Messages.oversightConflict);
    const fresh = change.locators.map((candidate) => JSON.stringify(candidate));
    const old = (Array.isArray(entry.locators) ? entry.locators : []).filter((candidate) => !fresh.includes(JSON.stringify(candidate)));
    file[change.key] = {
      ...entry,
      locators: [...change.locators, ...old],
      ...(change.fingerprint ? { fingerprint: change.fingerprint } : {}),
    };
  }
  const indent = /^\{\n(\s+)/.exec(content)?.[1] ?? '  ';
  return `${JSON.stringify(file, null, indent)}\n`;
}

/**
 * Code Review (spec 01 §4): files one item per healed scenario and locator file from each
 * uploaded run, lists the pending ones, discards them, and accepts them as one workspace commit.
 */
export class OversightService {
  constructor(
    private readonly items: OversightRepo,
    private readonly runs: RunsRepo,
    private readonly workspaces: WorkspaceService,
  ) {}

  /** Files the Code Review items of a stored run: healed commands whose element came from a locator file. */
  async fileFromRun(event: { caller: Caller; access: ProjectAccess; runId: string; branch: string; report: RunReport }): Promise<number> {
    // Most runs healed nothing: they cost no query and no workspace read (the upload waits for this).
    if (!event.report.testCases.some((testCase) => testCase.result.status === 'FIXED_BY_AI')) return 0;
    const cases = await this.runs.testCasesOf(event.runId);
    const ws = await this.workspaces.open(event.caller, event.access, event.branch);
    const snapshot = await this.workspaces.read(ws);
    let filed = 0;
    for (const row of cases) {
      const testCase = event.report.testCases[row.position];
      if (!testCase || testCase.result.status !== 'FIXED_BY_AI') continue;
      // Per locator file: the changes, the lowest confidence and the first before/after pictures.
      const byFile = new Map<string, { changes: Map<string, LocatorChange>; confidence: number; before?: string; after?: string }>();
      // Steps are numbered as the scenario reads them: hooks are no steps of it.
      const steps = testCase.steps.filter((step) => step.type !== 'Before' && step.type !== 'After');
      for (const step of testCase.steps) {
        for (const command of step.commands) {
          const healing = command.healing;
          if (!healing?.healed || !healing.source || !healing.locators || !LOCATOR_FILE.test(healing.source.file)) continue;
          const group = byFile.get(healing.source.file) ?? { changes: new Map<string, LocatorChange>(), confidence: 1 };
          const stepNumber = steps.indexOf(step) + 1;
          group.changes.set(healing.source.key, {
            key: healing.source.key,
            locators: healing.locators,
            fingerprint: healing.fingerprint,
            ...(stepNumber > 0 ? { stepNumber, step: `${step.keyword.trim()} ${step.text}` } : {}),
            element: healing.element || command.element_name,
            foundAs: healing.considered?.[0]?.element,
          });
          group.confidence = Math.min(group.confidence, healing.confidence);
          group.before ??= healing.beforeScreenshotId;
          group.after ??= command.screenshotId;
          byFile.set(healing.source.file, group);
        }
      }
      for (const [file, group] of byFile) {
        const before = await snapshot.readText(file);
        if (before === null) continue;
        const changes = [...group.changes.values()];
        let after: string;
        try {
          after = applyLocatorChanges(before, changes);
        } catch {
          continue;
        }
        await this.items.insert({
          projectId: event.access.project.id,
          runId: event.runId,
          testCaseId: row.id,
          branch: event.branch,
          featureName: testCase.featureName,
          scenarioName: testCase.scenarioName,
          classification: 'locator',
          confidence: group.confidence,
          file,
          before,
          after,
          changes: JSON.stringify(changes),
          beforeScreenshotId: group.before ?? null,
          afterScreenshotId: group.after ?? null,
        });
        filed += 1;
      }
    }
    return filed;
  }

  async list(projectId: string): Promise<OversightItem[]> {
    const rows = await this.items.listPending(projectId);
    return rows.map(toItem);
  }

  /** Pending items of one scenario execution (`scenario_id` is the test case id, or an item's own id). */
  private async pending(projectId: string, scenarioId: string): Promise<OversightItemRow[]> {
    if (!/^[0-9a-f-]{36}$/i.test(scenarioId)) throw notFound(Messages.oversightNotFound);
    const rows = await this.items.pendingOf(projectId);
    const found = rows.filter((row) => row.testCaseId === scenarioId || row.id === scenarioId);
    if (found.length === 0) throw notFound(Messages.oversightNotFound);
    return found;
  }

  /** Discard: the item leaves the list; the workspace is not touched. */
  async archive(projectId: string, scenarioId: string): Promise<void> {
    for (const row of await this.pending(projectId, scenarioId)) {
      await this.items.markArchived(row.id);
    }
  }

  /**
   * Accept: re-applies the healed entries to each locator file as it is now (not the stored
   * "after", which may be stale) and commits them together, `[app:code-review.accept] …`.
   */
  async accept(caller: Caller, access: ProjectAccess, scenarioId: string, branch?: string): Promise<string> {
    // The access check refuses writes to expired projects already; the fix must never slip past it.
    if (access.isExpired) throw forbidden(Messages.licenceExpired);
    const rows = await this.pending(access.project.id, scenarioId);
    const ws = await this.workspaces.open(caller, access, branch ?? rows[0]!.branch);
    const { commit } = await this.workspaces.write(ws, async (snapshot) => {
      const changes = [];
      for (const row of rows) {
        const current = await snapshot.readText(row.file);
        if (current === null) throw conflict(Messages.oversightConflict);
        changes.push({ path: row.file, content: applyLocatorChanges(current, JSON.parse(row.changes) as LocatorChange[]) });
      }
      const first = rows[0]!;
      return {
        changes,
        message: `[app:code-review.accept] feature: ${first.featureName}, scenario: ${first.scenarioName}, files: ${[...new Set(rows.map((row) => row.file))].join(', ')}`,
        result: {},
      };
    });
    for (const row of rows) await this.items.markAccepted(row.id);
    return commit;
  }
}

function toItem(row: OversightItemRow): OversightItem {
  return {
    _id: row.id,
    scenario_id: row.testCaseId,
    runId: row.runId,
    createdAt: row.createdAt.toISOString(),
    name: row.scenarioName,
    classification: row.classification as OversightItem['classification'],
    confidence: row.confidence,
    file: row.file,
    before: row.before,
    after: row.after,
    beforeScreenshotId: row.beforeScreenshotId,
    afterScreenshotId: row.afterScreenshotId,
    healed: healedOf(row.changes),
    report: { testCases: [{ featureName: row.featureName, scenarioName: row.scenarioName, result: { status: 'FIXED_BY_AI' } }] },
  };
}

/** What an item healed, read from its stored changes (items filed before steps were kept name only the key). */
function healedOf(stored: string): OversightItem['healed'] {
  let changes: unknown;
  try {
    changes = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(changes)) return [];
  return (changes as LocatorChange[]).map((change) => ({
    key: change.key,
    element: change.element ?? change.key,
    ...(change.stepNumber !== undefined ? { stepNumber: change.stepNumber } : {}),
    ...(change.step !== undefined ? { step: change.step } : {}),
    ...(change.foundAs !== undefined ? { foundAs: change.foundAs } : {}),
  }));
}
