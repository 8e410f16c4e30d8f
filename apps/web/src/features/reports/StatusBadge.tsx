import { Circle, CircleCheck, CircleX, MinusCircle } from 'lucide-react';
import { Strings } from '../../lib/strings';

const looks: Record<string, { label: string; className: string }> = {
  PASSED: { label: Strings.statusPassed, className: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  FAILED: { label: Strings.statusFailed, className: 'bg-red-50 text-red-800 ring-red-200' },
  UNDEFINED: { label: Strings.statusUndefined, className: 'bg-amber-50 text-amber-900 ring-amber-200' },
  SKIPPED: { label: Strings.statusSkipped, className: 'bg-slate-100 text-slate-700 ring-slate-200' },
  FIXED_BY_AI: { label: Strings.statusFixedByAi, className: 'bg-violet-50 text-violet-800 ring-violet-200' },
  // A run whose execution still appends scenarios: its PASSED/FAILED is not known yet.
  RUNNING: { label: Strings.statusRunning, className: 'bg-sky-50 text-sky-800 ring-sky-200' },
};

/** The label of a run, scenario, step or command status (spec 02 §9: Passed or Failed). */
export function statusLabel(status: string): string {
  return looks[status]?.label ?? status;
}

/** A status as a coloured pill; the text carries the meaning, the colour only repeats it. */
export function StatusBadge({ status, className = '' }: { status: string; className?: string }) {
  const look = looks[status] ?? looks.SKIPPED!;
  return (
    <span
      data-status={status}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${look.className} ${className}`}
    >
      {statusLabel(status)}
    </span>
  );
}

/** A status as an icon beside a step, command or API test; its label stands next to it for screen readers. */
export function StatusIcon({ status }: { status: string }) {
  if (status === 'PASSED' || status === 'FIXED_BY_AI')
    return <CircleCheck aria-hidden="true" className="size-4 shrink-0 text-emerald-600" />;
  if (status === 'FAILED') return <CircleX aria-hidden="true" className="size-4 shrink-0 text-red-600" />;
  if (status === 'SKIPPED') return <MinusCircle aria-hidden="true" className="size-4 shrink-0 text-slate-400" />;
  return <Circle aria-hidden="true" className="size-4 shrink-0 text-amber-500" />;
}

/** 'fixed by AI' / 'failed by AI' next to a scenario a retrain tried to heal (spec 02 §4). */
export function AiRetrainBadge({ label }: { label: 'fixed by AI' | 'failed by AI' | null }) {
  if (!label) return null;
  const fixed = label === 'fixed by AI';
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${fixed ? 'bg-violet-50 text-violet-800 ring-violet-200' : 'bg-orange-50 text-orange-900 ring-orange-200'}`}
    >
      {fixed ? Strings.fixedByAi : Strings.failedByAi}
    </span>
  );
}

/** 'Flaky' next to a scenario that failed, then passed on a retry; the title says on which attempt. */
export function FlakyBadge({ testCase }: { testCase: { flaky?: boolean | undefined; attempts?: number | undefined } }) {
  if (!testCase.flaky) return null;
  return (
    <span
      data-testid="flaky-badge"
      title={Strings.flakyTitle(testCase.attempts ?? 2)}
      className="inline-flex items-center rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 ring-1 ring-amber-200 ring-inset"
    >
      {Strings.flaky}
    </span>
  );
}
