import type { ReportStep } from '@rehearse/contract';
import { Strings } from '../../lib/strings';
import { commandTitle, durationMs, secondsText } from './report-rules';
import { StatusIcon, statusLabel } from './StatusBadge';

/**
 * The left column of a scenario report: every step with its status and time; the selected step
 * opens to its commands, the selected command marked.
 */
export function ReportStepList({
  steps,
  stepIndex,
  commandIndex,
  onSelectStep,
  onSelectCommand,
}: {
  steps: ReportStep[];
  stepIndex: number;
  commandIndex: number;
  onSelectStep: (index: number) => void;
  onSelectCommand: (index: number, commandIndex: number) => void;
}) {
  return (
    <section aria-label={Strings.reportStepList} className="rounded-xl border border-slate-200 bg-white">
      <h2 className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-900">
        {Strings.reportStepList} <span className="font-normal text-slate-500">({steps.length})</span>
      </h2>
      <ol className="max-h-[calc(100vh-18rem)] min-h-64 overflow-y-auto p-2" data-testid="step-list">
        {steps.map((s, index) => (
          <StepRow
            key={index}
            step={s}
            index={index}
            selected={index === stepIndex}
            commandIndex={index === stepIndex ? commandIndex : -1}
            onSelect={() => onSelectStep(index)}
            onSelectCommand={(ci) => onSelectCommand(index, ci)}
          />
        ))}
      </ol>
    </section>
  );
}

function StepRow({
  step,
  index,
  selected,
  commandIndex,
  onSelect,
  onSelectCommand,
}: {
  step: ReportStep;
  index: number;
  selected: boolean;
  commandIndex: number;
  onSelect: () => void;
  onSelectCommand: (index: number) => void;
}) {
  return (
    <li data-testid="step" data-selected={selected || undefined}>
      <button
        type="button"
        aria-expanded={selected}
        onClick={onSelect}
        className={`focus-ring flex w-full items-start gap-2 rounded-lg px-2 py-2 text-left text-sm ${selected ? 'bg-brand-50' : 'hover:bg-slate-50'}`}
      >
        <span className="w-6 shrink-0 pt-0.5 text-right text-xs text-slate-500 tabular-nums">{index + 1}</span>
        <span className="pt-0.5">
          <StatusIcon status={step.result.status} />
        </span>
        <span className="min-w-0 flex-1">
          <span className="font-semibold text-slate-900">{step.keyword.trim()}</span> <span className="text-slate-800">{step.text}</span>
          <span className="sr-only">, {statusLabel(step.result.status)}</span>
          <span className="block text-xs text-slate-600">
            {Strings.reportCommands(step.commands.length)} · {secondsText(durationMs(step.result.startTime, step.result.endTime))}
          </span>
        </span>
      </button>
      {selected && step.commands.length > 0 && (
        <ul className="mt-1 mb-2 ml-10 flex flex-col gap-0.5 border-l border-slate-200 pl-2">
          {step.commands.map((command, ci) => (
            <li key={ci}>
              <button
                type="button"
                data-testid="command"
                aria-current={ci === commandIndex || undefined}
                onClick={() => onSelectCommand(ci)}
                className={`focus-ring flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-xs ${ci === commandIndex ? 'bg-brand-100 font-semibold text-brand-900' : 'text-slate-700 hover:bg-slate-50'}`}
              >
                <StatusIcon status={command.result.status} />
                <span className="truncate">{commandTitle(command)}</span>
                <span className="sr-only">, {statusLabel(command.result.status)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
