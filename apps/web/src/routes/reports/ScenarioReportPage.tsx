import { useParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { reportKeys, useScenarioReport } from '../../features/reports/queries';
import { ScenarioReportView } from '../../features/reports/ScenarioReportView';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { reportFetchFailure } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

/** scenario-report/{scenarioId}: one single-scenario execution (spec 02 §2). */
export function ScenarioReportPage() {
  const { project } = useCurrentProject();
  const { scenarioId = '' } = useParams();
  const scenario = useScenarioReport(scenarioId);
  useDocumentTitle(scenario.data?.report.scenarioName ?? Strings.reportsTitle);

  if (scenario.isPending) return <FullPageSpinner label={Strings.reportLoading} />;
  if (scenario.isError)
    return (
      <ErrorPanel
        title={Strings.reportLoadFailed}
        detail={reportFetchFailure(scenario.error, Strings.reportInternalError)}
        onRetry={() => void scenario.refetch()}
      />
    );
  return (
    <ScenarioReportView
      projectId={project.id}
      testCase={scenario.data.report}
      run={scenario.data.runName ? { id: scenario.data.runId, name: scenario.data.runName } : null}
      owner={{ kind: 'scenario' }}
      invalidate={reportKeys.scenario(scenarioId)}
    />
  );
}
