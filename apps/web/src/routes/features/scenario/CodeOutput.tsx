import type { StepInfo } from '@rehearse/contract';
import { useLastUpdated } from '../../../features/scenarios/queries';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import type { WorkspaceScope } from '../../../features/workspace/scope';
import { formatDateTime } from '../../../lib/format';
import type { StepsState } from './panel-props';
import { WhenStepsLoaded } from './WhenStepsLoaded';

/** Spec 02 §2, §8: when a step file's code was last generated, or why that is not known. */
function lastGeneratedText(iso: string | null): string {
  if (!iso) return S.lastGeneratedNoData;
  if (Number.isNaN(new Date(iso).getTime())) return S.lastGeneratedInvalid;
  const { date, time } = formatDateTime(iso);
  return S.lastGenerated(`${date} ${time}`);
}

function LastGenerated({ scope, file }: { scope: WorkspaceScope; file: string }) {
  const updated = useLastUpdated(scope, file);
  if (updated.isPending) return null;
  return (
    <span className="ml-auto text-xs text-slate-500" data-testid="last-generated">
      {updated.isError ? S.lastGeneratedFailed : lastGeneratedText(updated.data)}
    </span>
  );
}

/** Code output (spec 02 §2): the code behind each step, grouped by file, with its date and errors. */
export function CodeOutput({ scope, state }: { scope: WorkspaceScope; state: StepsState }) {
  return <WhenStepsLoaded state={state}>{(steps) => <CodeByFile scope={scope} steps={steps} />}</WhenStepsLoaded>;
}

function CodeByFile({ scope, steps }: { scope: WorkspaceScope; steps: StepInfo[] }) {
  const files = new Map<string, StepInfo[]>();
  for (const step of steps) if (step.mjsFile) files.set(step.mjsFile, [...(files.get(step.mjsFile) ?? []), step]);
  const builtIns = steps.filter((step) => !step.mjsFile);
  return (
    <div className="flex flex-col gap-5" data-testid="code-output">
      {[...files.entries()].map(([file, fileSteps]) => {
        const first = fileSteps[0]!;
        return (
          <section key={file} className="rounded-xl border border-slate-200 bg-white">
            <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2.5">
              <h2 className="font-mono text-sm font-medium text-slate-800">{file}</h2>
              <LastGenerated scope={scope} file={file} />
            </header>
            <ul className="flex flex-col gap-1 px-4 py-2 text-sm text-slate-700">
              {fileSteps.map((step, i) => (
                <li key={`${step.line}-${i}`}>
                  <span className="font-semibold text-brand-700">{step.keyword.trim()}</span> {step.stepName}
                </li>
              ))}
            </ul>
            {fileSteps.some((step) => step.isNotValid) && (
              <p role="alert" className="mx-4 mb-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
                {S.codeErrors}
              </p>
            )}
            <pre className="max-h-96 overflow-auto border-t border-slate-100 bg-slate-50 px-4 py-3 font-mono text-xs text-slate-800">
              {first.mjsFileContent ?? ''}
            </pre>
          </section>
        );
      })}
      {builtIns.length > 0 && (
        <section className="rounded-xl border border-slate-200 bg-white px-4 py-3">
          <h2 className="mb-1 text-sm font-semibold text-slate-800">{S.builtIn}</h2>
          <ul className="flex flex-col gap-1 text-sm text-slate-700">
            {builtIns.map((step, i) => (
              <li key={`${step.line}-${i}`}>
                <span className="font-semibold text-brand-700">{step.keyword.trim()}</span> {step.stepName}
                {!step.implemented && <span className="ml-2 text-xs text-amber-800">({S.notImplemented})</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
