import { executionCalls, runsCalls, type Project } from '@rehearse/contract';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Circle, FolderPlus, PenLine, PlayCircle, CalendarClock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { StandalonePage } from '../../shell/StandalonePage';
import { Spinner } from '../../components/Spinner';
import { useFeaturesCount } from '../../features/dashboard/queries';
import { useLastActiveProject, useProjects } from '../../features/projects/queries';
import { useWorkspaceScope } from '../../features/workspace/scope';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { api, errorMessage } from '../../lib/api';
import { GETTING_STARTED_POSTER_URL, GETTING_STARTED_VIDEO_URL } from '../../lib/getting-started';
import { Strings } from '../../lib/strings';

/**
 * Get Started (spec 01 §2 /onboarding, reached from the user menu): the four steps from a new
 * account to a scheduled, reviewed test, each ticked from the user's real data so the page doubles
 * as a progress check. The steps link to the screens that do them.
 */
export function OnboardingPage() {
  useDocumentTitle(Strings.userMenuGetStarted);
  const projects = useProjects();
  const lastActive = useLastActiveProject();
  const project = projects.data?.find((p) => p.id === lastActive.data) ?? projects.data?.[0];

  return (
    <StandalonePage>
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.onboardingTitle}</h1>
        <p className="text-slate-600">{Strings.onboardingIntro}</p>
      </header>
      <GettingStartedVideo />
      {projects.isError ? (
        <ErrorPanel title={Strings.projectsLoadFailed} detail={errorMessage(projects.error)} onRetry={() => void projects.refetch()} />
      ) : projects.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
          <Spinner /> {Strings.onboardingLoading}
        </p>
      ) : project ? (
        <ProjectSteps project={project} />
      ) : (
        <ol className="flex flex-col gap-3">
          <Step
            done={false}
            icon={<FolderPlus aria-hidden="true" className="size-5" />}
            title={Strings.onboardingProjectTitle}
            text={Strings.onboardingProjectText}
            action={{ to: '/projects/new?newUser=1', label: Strings.onboardingProjectAction }}
          />
        </ol>
      )}
    </StandalonePage>
  );
}

/** Recorded from the product itself (`scripts/getting-started-video.ts`); captions are in the picture. */
function GettingStartedVideo() {
  return (
    <section
      aria-labelledby="getting-started-video"
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-col gap-1">
        <h2 id="getting-started-video" className="font-semibold text-slate-900">
          {Strings.onboardingVideoTitle}
        </h2>
        <p className="text-sm text-slate-600">{Strings.onboardingVideoText}</p>
      </div>
      {/* preload="metadata": the 1 MB film loads only when played, so the page stays light. */}
      <video
        data-testid="getting-started-video"
        className="aspect-[8/5] w-full rounded-lg bg-slate-900"
        controls
        preload="metadata"
        poster={GETTING_STARTED_POSTER_URL}
        aria-label={Strings.onboardingVideoTitle}
      >
        <source src={GETTING_STARTED_VIDEO_URL} type="video/webm" />
        {Strings.onboardingVideoUnsupported}
      </video>
    </section>
  );
}

function ProjectSteps({ project }: { project: Project }) {
  const scope = useWorkspaceScope(project);
  const features = useFeaturesCount(scope);
  const runs = useQuery({
    queryKey: ['onboarding', 'runs', project.id] as const,
    queryFn: () => api.call(runsCalls.dashboardDetails, { query: { projectId: project.id } }),
  });
  const executions = useQuery({
    queryKey: ['onboarding', 'executions', project.id] as const,
    queryFn: () => api.call(executionCalls.list, { query: { projectId: project.id } }),
  });
  const base = `/${project.id}`;
  const scenarios = features.data?.scenarios ?? 0;
  const runCount = runs.data?.projectSummary.runsAndScenarios.runs ?? 0;
  const executionCount = executions.data?.executions.length ?? 0;

  return (
    <>
      <p className="text-sm text-slate-600">{Strings.onboardingProjectNote(project.name)}</p>
      <ol className="flex flex-col gap-3">
        <Step
          done
          icon={<FolderPlus aria-hidden="true" className="size-5" />}
          title={Strings.onboardingProjectTitle}
          text={Strings.onboardingProjectDone(project.name)}
          action={{ to: `${base}/dashboard`, label: Strings.onboardingOpenDashboard }}
        />
        <Step
          done={scenarios > 0}
          loading={features.isPending}
          icon={<PenLine aria-hidden="true" className="size-5" />}
          title={Strings.onboardingScenarioTitle}
          text={scenarios > 0 ? Strings.onboardingScenarioDone(scenarios) : Strings.onboardingScenarioText}
          action={{ to: `${base}/features`, label: Strings.onboardingScenarioAction }}
        />
        <Step
          done={runCount > 0}
          loading={runs.isPending}
          icon={<PlayCircle aria-hidden="true" className="size-5" />}
          title={Strings.onboardingRunTitle}
          text={runCount > 0 ? Strings.onboardingRunDone(runCount) : Strings.onboardingRunText}
          action={{
            to: runCount > 0 ? `${base}/runs` : `${base}/features`,
            label: runCount > 0 ? Strings.onboardingRunReports : Strings.onboardingRunAction,
          }}
        />
        <Step
          done={executionCount > 0}
          loading={executions.isPending}
          icon={<CalendarClock aria-hidden="true" className="size-5" />}
          title={Strings.onboardingPlanTitle}
          text={executionCount > 0 ? Strings.onboardingPlanDone(executionCount) : Strings.onboardingPlanText}
          action={{ to: `${base}/executions`, label: Strings.onboardingPlanAction }}
        />
      </ol>
    </>
  );
}

function Step(props: {
  done: boolean;
  loading?: boolean;
  icon: ReactNode;
  title: string;
  text: string;
  action: { to: string; label: string };
}) {
  return (
    <li className="flex items-start gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">{props.icon}</span>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h2 className="flex items-center gap-2 font-semibold text-slate-900">
          {props.title}
          {props.loading ? (
            <Spinner />
          ) : props.done ? (
            <CheckCircle2 className="size-4 text-emerald-600" aria-label={Strings.onboardingDone} />
          ) : (
            <Circle className="size-4 text-slate-400" aria-label={Strings.onboardingToDo} />
          )}
        </h2>
        <p className="text-sm text-slate-600">{props.text}</p>
      </div>
      <Link
        to={props.action.to}
        className="focus-ring inline-flex h-9 shrink-0 items-center self-center rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        {props.action.label}
      </Link>
    </li>
  );
}
