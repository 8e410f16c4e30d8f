import { environmentDisplayName } from '@rehearse/contract';
import { AccessTokenRequired } from '../../../shell/AccessTokenRequired';
import { CopyButton } from '../../../components/CopyButton';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { Spinner } from '../../../components/Spinner';
import { useRunInstructions } from '../../../features/executions/queries';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import type { WorkspaceScope } from '../../../features/workspace/scope';
import { errorMessage } from '../../../lib/api';

/** The scenario's "Run via CI/CD" text, from the server (the one source of CI text), with a copy button. */
export function ScenarioCiInstructions({
  scope,
  featureName,
  scenarioName,
  environment,
}: {
  scope: WorkspaceScope;
  featureName: string;
  scenarioName: string;
  environment: string | null;
}) {
  const instructions = useRunInstructions(scope.projectId, {
    env: environment ? environmentDisplayName(environment) : undefined,
    branch: scope.branch,
    feature: featureName,
    scenario: scenarioName,
  });
  if (instructions.isPending) return <Spinner />;
  if (instructions.isError)
    return <ErrorPanel title={S.ciLoadFailed} detail={errorMessage(instructions.error)} onRetry={() => void instructions.refetch()} />;
  const shell = instructions.data.instructions.find((item) => item.id === 'shell');
  if (!shell) return null;
  return (
    <div className="flex flex-col gap-2">
      {instructions.data.accessKeyName === null && <AccessTokenRequired projectId={scope.projectId} />}
      <div className="flex justify-end">
        <CopyButton text={shell.content} />
      </div>
      <pre
        className="whitespace-pre-wrap rounded-lg [overflow-wrap:anywhere] bg-slate-900 p-4 text-xs text-slate-100"
        data-testid="ci-instructions"
      >
        {shell.content}
      </pre>
    </div>
  );
}
