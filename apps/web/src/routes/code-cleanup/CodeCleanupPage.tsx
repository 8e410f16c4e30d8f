import type { StepDefinitionRef } from '@rehearse/contract';
import { ChevronDown, ChevronRight, FileCode2, Sparkles, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../components/Button';
import { Checkbox } from '../../components/Checkbox';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { IconButton } from '../../components/IconButton';
import { FullPageSpinner } from '../../components/Spinner';
import { stepKey, useRemoveUnusedSteps, useUnusedSteps } from '../../features/code-cleanup/queries';
import { useLicence } from '../../features/licence/LicenceProvider';
import { useWorkspaceScope } from '../../features/workspace/scope';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';
import { SectionHeading } from '../settings/SettingsLayout';
import { snackbar } from '../../lib/notify';

/** Spec 01 §2: the list of unused steps is at most 482 px high and scrolls beyond. */
export const UNUSED_STEPS_MAX_HEIGHT_PX = 482;

interface FileGroup {
  uri: string;
  steps: StepDefinitionRef[];
}

/** Steps grouped by file, files and steps in a stable order. */
export function groupByFile(steps: StepDefinitionRef[]): FileGroup[] {
  const groups = new Map<string, StepDefinitionRef[]>();
  for (const step of steps) groups.set(step.uri, [...(groups.get(step.uri) ?? []), step]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([uri, list]) => ({ uri, steps: list.sort((a, b) => a.line - b.line) }));
}

/** Checked state of a group of steps: all, some (mixed) or none. */
function triState(steps: StepDefinitionRef[], selected: ReadonlySet<string>): boolean | 'mixed' {
  const count = steps.filter((step) => selected.has(stepKey(step))).length;
  return count === 0 ? false : count === steps.length ? true : 'mixed';
}

function fileName(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}

interface DeleteTarget {
  /** Steps to remove; empty means every unused step (spec 01 §4). */
  steps: StepDefinitionRef[];
  name: string;
}

/**
 * Code cleanup (spec 01 §2, §4; 02 §8): unused step definitions grouped by file, tri-state
 * selection, collapsible files, per-file and per-step delete, and 'Remove all' / 'Remove N'.
 */
export function CodeCleanupPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${Strings.tabCodeCleanup} · ${project.name}`);
  const scope = useWorkspaceScope(project);
  const unused = useUnusedSteps(scope);
  const remove = useRemoveUnusedSteps(scope);
  const licence = useLicence();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [target, setTarget] = useState<DeleteTarget | null>(null);

  const steps = useMemo(() => unused.data ?? [], [unused.data]);
  const groups = useMemo(() => groupByFile(steps), [steps]);
  // A selection only counts for steps still in the list.
  const live = useMemo(() => new Set(steps.map(stepKey).filter((key) => selected.has(key))), [steps, selected]);
  const all = triState(steps, live);

  const toggle = (list: StepDefinitionRef[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const step of list) {
        if (on) next.add(stepKey(step));
        else next.delete(stepKey(step));
      }
      return next;
    });

  const askRemove = (next: DeleteTarget) => licence.guard(() => setTarget(next));

  const removeSelectedOrAll = () => {
    const chosen = steps.filter((step) => live.has(stepKey(step)));
    askRemove(
      chosen.length === 0
        ? { steps: [], name: Strings.cleanupDeleteAllName(steps.length) }
        : { steps: chosen, name: Strings.cleanupDeleteSomeName(chosen.length) },
    );
  };

  if (unused.isPending) return <FullPageSpinner />;

  return (
    <section aria-labelledby="cleanup-title" className="flex flex-col gap-6">
      <SectionHeading id="cleanup-title" title={Strings.cleanupTitle} intro={Strings.cleanupIntro} />
      {unused.isError ? (
        <ErrorPanel
          title={Strings.cleanupLoadFailed}
          detail={`${Strings.cleanupQueryFailed}: ${errorMessage(unused.error)}`}
          onRetry={() => void unused.refetch()}
        />
      ) : steps.length === 0 ? (
        <div
          role="status"
          className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white/60 p-10 text-center"
        >
          <Sparkles aria-hidden="true" className="size-6 text-brand-600" />
          <p className="text-sm text-slate-600">{Strings.cleanupEmpty}</p>
        </div>
      ) : (
        <div className="rounded-2xl border border-slate-200 bg-white shadow-xs" data-testid="unused-steps">
          <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-3">
            <label className="flex items-center gap-3 text-sm font-medium text-slate-700">
              <Checkbox checked={all} onChange={() => toggle(steps, all !== true)} aria-label={Strings.cleanupSelectAll} />
              <span aria-hidden="true">{`${steps.length} ${Strings.cleanupNoun(steps.length)}`}</span>
            </label>
            <Button variant="danger" size="sm" className="ml-auto" onClick={removeSelectedOrAll} disabled={remove.isPending}>
              <Trash2 aria-hidden="true" className="size-3.5" />
              {live.size === 0 ? Strings.cleanupRemoveAll : Strings.cleanupRemoveSome(live.size)}
            </Button>
          </div>
          <ul
            className="divide-y divide-slate-100 overflow-y-auto"
            style={{ maxHeight: UNUSED_STEPS_MAX_HEIGHT_PX }}
            data-testid="unused-steps-list"
          >
            {groups.map((group) => {
              const open = !collapsed.has(group.uri);
              const name = fileName(group.uri);
              const listId = `steps-${group.uri.replace(/[^\w-]/g, '_')}`;
              return (
                <li key={group.uri}>
                  <div className="flex items-center gap-3 bg-slate-50/70 px-4 py-2.5">
                    <button
                      type="button"
                      aria-expanded={open}
                      aria-controls={listId}
                      aria-label={open ? Strings.cleanupCollapse(name) : Strings.cleanupExpand(name)}
                      onClick={() =>
                        setCollapsed((current) => {
                          const next = new Set(current);
                          if (open) next.add(group.uri);
                          else next.delete(group.uri);
                          return next;
                        })
                      }
                      className="focus-ring flex size-6 items-center justify-center rounded text-slate-500 hover:bg-slate-200"
                    >
                      {open ? (
                        <ChevronDown aria-hidden="true" className="size-4" />
                      ) : (
                        <ChevronRight aria-hidden="true" className="size-4" />
                      )}
                    </button>
                    <Checkbox
                      checked={triState(group.steps, live)}
                      onChange={() => toggle(group.steps, triState(group.steps, live) !== true)}
                      aria-label={Strings.cleanupSelectFile(name)}
                    />
                    <FileCode2 aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                    <span className="min-w-0 flex-1 truncate font-mono text-sm font-medium text-slate-800" title={group.uri}>
                      {group.uri}
                    </span>
                    <span className="shrink-0 text-xs text-slate-500">{Strings.cleanupStepCount(group.steps.length)}</span>
                    <IconButton
                      label={Strings.cleanupDeleteFile(name)}
                      icon={Trash2}
                      tone="danger"
                      onClick={() => askRemove({ steps: group.steps, name: group.uri })}
                    />
                  </div>
                  {open && (
                    <ul id={listId} className="divide-y divide-slate-50">
                      {group.steps.map((step) => (
                        <li key={stepKey(step)} className="flex items-center gap-3 py-2 pr-4 pl-13">
                          <Checkbox
                            checked={live.has(stepKey(step))}
                            onChange={(event) => toggle([step], event.target.checked)}
                            aria-label={Strings.cleanupSelectStep(step.pattern)}
                          />
                          <span className="min-w-0 flex-1 truncate text-sm text-slate-800" title={step.pattern}>
                            <span className="mr-1.5 font-semibold text-brand-700">{step.keyword.trim()}</span>
                            {step.pattern}
                          </span>
                          <span className="shrink-0 text-xs text-slate-500">{Strings.cleanupLine(step.line)}</span>
                          <IconButton
                            label={Strings.cleanupDeleteStep(step.pattern)}
                            icon={Trash2}
                            tone="danger"
                            onClick={() => askRemove({ steps: [step], name: step.pattern })}
                          />
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <ConfirmDeleteDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        what={Strings.cleanupNoun(target?.steps.length === 1 ? 1 : 2)}
        name={target?.name ?? ''}
        failureMessage={() => Strings.cleanupDeleteFailed}
        onConfirm={async () => {
          if (!target) return;
          const { removed } = await remove.mutateAsync(target.steps);
          snackbar.success(Strings.cleanupDeleted(removed));
          toggle(target.steps, false);
        }}
      />
    </section>
  );
}
