import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AccessTokenRequired } from '../../shell/AccessTokenRequired';
import { CopyButton } from '../../components/CopyButton';
import { ErrorPanel } from '../../components/ErrorPanel';
import { ShellText } from '../../components/ShellText';
import { FullPageSpinner } from '../../components/Spinner';
import { useRunInstructions } from '../../features/executions/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

/** runs/instructions: the generated CI/CD commands (spec 02 §9), from the server. */
export function RunInstructionsPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(Strings.instructionsTitle);
  // Nothing picked yet: the server answers for the project's first environment and lists them all.
  const [env, setEnv] = useState<string | undefined>(undefined);
  const instructions = useRunInstructions(project.id, { env });
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-5 px-8 py-6">
      <Link
        to={`/${project.id}/executions`}
        className="focus-ring inline-flex w-fit items-center gap-1 rounded text-sm text-slate-600 hover:text-brand-700"
      >
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
        <ErrorPanel
          title={Strings.instructionsLoadFailed}
          detail={errorMessage(instructions.error)}
          onRetry={() => void instructions.refetch()}
        />
      ) : (
        <>
          {instructions.data.accessKeyName === null && <AccessTokenRequired projectId={project.id} />}
          <label className="flex items-center gap-2 text-sm text-slate-700">
            {Strings.instructionsEnvironment}
            <select
              value={instructions.data.env ?? ''}
              onChange={(event) => setEnv(event.target.value)}
              disabled={instructions.data.environments.length === 0}
              className="focus-ring h-8 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-800"
            >
              {instructions.data.environments.length === 0 && <option value="">{Strings.instructionsNoEnvironment}</option>}
              {instructions.data.environments.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          {instructions.data.instructions.map((item) => (
            <section key={item.id} aria-label={item.title} className="rounded-xl border border-slate-200 bg-white">
              <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
                <h2 className="text-sm font-semibold text-slate-900">{item.title}</h2>
                <CopyButton text={item.content} />
              </div>
              <pre className="whitespace-pre-wrap p-4 text-xs text-slate-800">
                <ShellText text={item.content} />
              </pre>
            </section>
          ))}
        </>
      )}
    </div>
  );
}
