import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { CopyButton } from '../../components/CopyButton';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { useRunInstructions } from '../../features/executions/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/ProjectLayout';

/** runs/instructions: the generated CI/CD commands (spec 02 §9), from the server. */
export function RunInstructionsPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(Strings.instructionsTitle);
  const instructions = useRunInstructions(project.id, undefined);
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-5 px-8 py-6">
      <Link to={`/${project.id}/executions`} className="focus-ring inline-flex w-fit items-center gap-1 rounded text-sm text-slate-600 hover:text-brand-700">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {Strings.instructionsBack}
      </Link>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.instructionsTitle}</h1>
        <p className="mt-1 text-sm text-slate-600">{Strings.instructionsIntro}</p>
      </div>
      {instructions.isPending ? (
        <FullPageSpinner />
      ) : instructions.isError ? (
        <ErrorPanel title={Strings.instructionsLoadFailed} detail={errorMessage(instructions.error)} onRetry={() => void instructions.refetch()} />
      ) : (
        instructions.data.instructions.map((item) => (
          <section key={item.id} aria-label={item.title} className="rounded-xl border border-slate-200 bg-white">
            <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
              <h2 className="text-sm font-semibold text-slate-900">{item.title}</h2>
              <CopyButton text={item.content} />
            </div>
            <pre className="overflow-x-auto p-4 text-xs text-slate-800">{item.content}</pre>
          </section>
        ))
      )}
    </div>
  );
}
