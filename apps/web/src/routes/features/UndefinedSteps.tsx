import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { replaceStepOnLine, undefinedStepMessage, type GherkinHelp } from '../../features/scenarios/step-help';
import { FeatureStrings as S } from '../../features/scenarios/strings';

/**
 * Under the Gherkin editor: the steps of the text being edited that nothing implements, each with
 * the steps it may have meant as buttons that put that step in its place. The editor underlines the
 * same steps; this list is what a keyboard or screen-reader user reaches, and what is seen without
 * hovering.
 */
export function UndefinedSteps({
  help,
  text,
  onChange,
  projectId,
}: {
  help: GherkinHelp;
  text: string;
  onChange: (text: string) => void;
  projectId: string;
}) {
  // An answer for another text has stale line numbers: wait for the next one.
  if (help.forText !== text || help.undefinedSteps.length === 0) return null;
  return (
    <ul
      className="flex flex-col gap-1.5 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950"
      data-testid="undefined-steps"
      aria-label={S.undefinedStep}
    >
      {help.undefinedSteps.map((step) => (
        <li key={`${step.line}:${step.text}`} className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-amber-700" />
          <span className="font-mono text-xs">{S.lineNumber(step.line)}</span>
          <span className="min-w-0 [overflow-wrap:anywhere]">{undefinedStepMessage(step)}</span>
          {step.suggestions.map((suggestion) => (
            <button
              key={suggestion}
              type="button"
              onClick={() => onChange(replaceStepOnLine(text, step, suggestion))}
              className="focus-ring rounded-md border border-amber-300 bg-white px-2 py-0.5 text-xs font-medium text-amber-900 hover:bg-amber-100"
            >
              {S.suggestionChoice(suggestion)}
            </button>
          ))}
          {step.suggestions.length === 0 && (
            <Link to={`/${projectId}/steps-reference`} className="focus-ring rounded text-xs font-medium text-brand-700 underline">
              {S.referenceLink}
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
