import { BUILT_IN_STEPS, type StepFamily } from '@rehearse/contract';
import { ArrowLeft, Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { useStepHelp } from '../../features/scenarios/queries';
import { BUILT_IN_CHOICES, projectChoices, type StepChoice } from '../../features/scenarios/step-help';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import { useWorkspaceScope } from '../../features/workspace/scope';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { useCurrentProject } from '../project/current-project';

/** The catalogue's families, in catalogue order. */
const FAMILIES: StepFamily[] = [...new Set(BUILT_IN_STEPS.map((step) => step.family))];

/** A step matches by its words, its description or its example (not its family: "drag" should not find the upload step). */
const matches = (choice: StepChoice, query: string) =>
  !query || [choice.label, choice.description, choice.example ?? ''].some((text) => text.toLowerCase().includes(query));

/**
 * /:projectId/steps-reference: every built-in step with what it does, its parameters and an
 * example, grouped by what it is for; then the project's own steps. Reached from the Gherkin editor
 * and named by the plain-English refusal, so a user can find the words that run.
 */
export function StepsReferencePage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${S.referenceTitle} · ${project.name}`);
  const scope = useWorkspaceScope(project);
  const help = useStepHelp(scope, '');
  const [query, setQuery] = useState('');
  const needle = query.trim().toLowerCase();
  const builtIn = BUILT_IN_CHOICES.filter((choice) => matches(choice, needle));
  const own = useMemo(() => projectChoices(help.data?.projectSteps ?? []), [help.data]);
  const ownShown = own.filter((choice) => matches(choice, needle));
  const total = BUILT_IN_CHOICES.length + own.length;
  const shown = builtIn.length + ownShown.length;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-5 px-8 py-6">
      <Link
        to={`/${project.id}/features`}
        className="focus-ring inline-flex w-fit items-center gap-1 rounded text-sm text-slate-600 hover:text-brand-700"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {S.referenceBack}
      </Link>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{S.referenceTitle}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{S.referenceIntro}</p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <label className="relative flex w-80 max-w-full items-center">
          <span className="sr-only">{S.referenceSearch}</span>
          <Search aria-hidden="true" className="pointer-events-none absolute left-3 size-4 text-slate-400" />
          <input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={S.referenceSearch}
            className="focus-ring h-9 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm text-slate-900"
          />
        </label>
        <p className="text-sm text-slate-600" role="status">
          {S.referenceCount(shown, total)}
        </p>
      </div>
      {shown === 0 && <p className="text-sm text-slate-600">{S.referenceNoMatch(query.trim())}</p>}
      {FAMILIES.map((family) => {
        const steps = builtIn.filter((choice) => choice.detail === family);
        if (steps.length === 0) return null;
        return (
          <section key={family} aria-labelledby={`family-${family}`} className="flex flex-col gap-2">
            <h2 id={`family-${family}`} className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
              {family}
            </h2>
            <ul className="flex flex-col divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
              {steps.map((choice) => (
                <StepEntry key={choice.pattern} choice={choice} />
              ))}
            </ul>
          </section>
        );
      })}
      <section aria-labelledby="project-steps" className="flex flex-col gap-2">
        <h2 id="project-steps" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
          {S.referenceProjectSteps}
        </h2>
        <p className="text-sm text-slate-600">{S.referenceProjectStepsIntro}</p>
        {help.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner /> {S.referenceProjectStepsLoading}
          </p>
        ) : help.isError ? (
          <ErrorPanel title={S.referenceProjectSteps} detail={errorMessage(help.error)} onRetry={() => void help.refetch()} />
        ) : (
          ownShown.length > 0 && (
            <ul className="flex flex-col divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
              {ownShown.map((choice) => (
                <StepEntry key={choice.pattern} choice={choice} />
              ))}
            </ul>
          )
        )}
      </section>
    </div>
  );
}

function StepEntry({ choice }: { choice: StepChoice }) {
  const step = BUILT_IN_STEPS.find((candidate) => candidate.pattern === choice.pattern);
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="reference-step">
      <code className="text-sm font-semibold [overflow-wrap:anywhere] text-slate-900">{choice.label}</code>
      {choice.description && <p className="text-sm text-slate-700">{choice.description}</p>}
      {!step && <p className="text-xs text-slate-500">{choice.detail}</p>}
      {step && step.parameters.length > 0 && (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5 text-xs text-slate-600" aria-label={S.referenceParameters}>
          {step.parameters.map((parameter) => (
            <div key={parameter.name} className="contents">
              <dt className="font-mono text-slate-800">{parameter.name}</dt>
              <dd>{parameter.description}</dd>
            </div>
          ))}
        </dl>
      )}
      {choice.example && (
        <p className="text-xs text-slate-600">
          <span className="font-medium">{S.referenceExample}: </span>
          <code className="rounded bg-slate-100 px-1.5 py-0.5 whitespace-pre-wrap text-slate-800">{choice.example}</code>
        </p>
      )}
    </li>
  );
}
