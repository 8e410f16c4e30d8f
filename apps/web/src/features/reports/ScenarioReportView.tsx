import * as Tabs from '@radix-ui/react-tabs';
import type { Command, NetworkEntry, ReportStep, StoredTestCase } from '@rehearse/contract';
import { ChevronLeft, ChevronRight, Circle, CircleCheck, CircleX, List, MinusCircle } from 'lucide-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { Strings } from '../../lib/strings';
import { CommentsPanel } from './CommentsPanel';
import { useScreenshot, type ScreenshotOwner } from './queries';
import {
  aiRetrainLabel,
  apiTestInfo,
  defaultCommandIndex,
  defaultStepIndex,
  defaultTab,
  durationMs,
  durationText,
  httpStatusLabel,
  isFailingRequest,
  maskValue,
  secondsText,
  sizeText,
  timeBarPercent,
  urlEllipsisParts,
  type DetailTab,
} from './report-rules';
import { ReportFiles } from './ReportFiles';
import { reportClockText, reportDateTime, type ReportTimeZone } from './report-time';
import { ReportTimeZoneSelect } from './ReportTimeZoneSelect';
import { useReportTimeZone } from './useReportTimeZone';
import { AiRetrainBadge, FlakyBadge, StatusBadge, statusLabel } from './StatusBadge';

export interface ScenarioReportViewProps {
  projectId: string;
  testCase: StoredTestCase;
  /** The run the scenario belongs to (breadcrumb), when it has one worth linking. */
  run: { id: string; name: string } | null;
  owner: ScreenshotOwner;
  /** Query key refetched after a comment changes. */
  invalidate: readonly unknown[];
  /** 'Previous results' with what they are (PreviousResults), when the report has them. */
  previous?: ReactNode;
}

function commandTitle(command: Command): string {
  const what = command.element_name ?? command.text ?? command.info?.title ?? command.info?.url ?? '';
  const value = command.value ? ` "${maskValue(command.value)}"` : '';
  return `${command.type.replace(/_/g, ' ')}${what ? ` ${what}` : ''}${value}`;
}

function StatusIcon({ status }: { status: string }) {
  if (status === 'PASSED' || status === 'FIXED_BY_AI')
    return <CircleCheck aria-hidden="true" className="size-4 shrink-0 text-emerald-600" />;
  if (status === 'FAILED') return <CircleX aria-hidden="true" className="size-4 shrink-0 text-red-600" />;
  if (status === 'SKIPPED') return <MinusCircle aria-hidden="true" className="size-4 shrink-0 text-slate-400" />;
  return <Circle aria-hidden="true" className="size-4 shrink-0 text-amber-500" />;
}

/**
 * One scenario execution (spec 02 §2 "Run report" / scenario report): breadcrumb, heading, start,
 * summary cards, values used, the step list with its commands and the detail pane whose tab and
 * selection follow the rules of §4. Shared by run-report/{runId}/{testId} and scenario-report/{id}.
 */
export function ScenarioReportView({ projectId, testCase, run, owner, invalidate, previous }: ScenarioReportViewProps) {
  const steps = testCase.steps;
  const [stepIndex, setStepIndex] = useState(() => defaultStepIndex(steps));
  const step = steps[stepIndex];
  const [commandIndex, setCommandIndex] = useState(() => defaultCommandIndex(step?.commands ?? []));
  const [tab, setTab] = useState<string>(() => (step ? defaultTab(step.networkData, step.webLog) : 'screenshot'));
  const [networkOpen, setNetworkOpen] = useState(false);

  // Another scenario of the same run reuses this component: start again from its defaults.
  useEffect(() => {
    const first = defaultStepIndex(testCase.steps);
    const firstStep = testCase.steps[first];
    setStepIndex(first);
    setCommandIndex(defaultCommandIndex(firstStep?.commands ?? []));
    setTab(firstStep ? defaultTab(firstStep.networkData, firstStep.webLog) : 'screenshot');
  }, [testCase]);

  const selectStep = (index: number) => {
    const next = steps[index];
    setStepIndex(index);
    setCommandIndex(defaultCommandIndex(next?.commands ?? []));
    setTab(next ? defaultTab(next.networkData, next.webLog) : 'screenshot');
  };

  // Commands across all steps, so Previous / Next walk the whole scenario.
  const flat = useMemo(() => steps.flatMap((s, si) => s.commands.map((_, ci) => [si, ci] as const)), [steps]);
  const position = flat.findIndex(([si, ci]) => si === stepIndex && ci === commandIndex);
  const go = (delta: number) => {
    const target = flat[position + delta];
    if (!target) return;
    if (target[0] !== stepIndex) selectStep(target[0]);
    setCommandIndex(target[1]);
  };

  const [zone, setZone] = useReportTimeZone();
  const started = reportDateTime(testCase.result.startTime, zone);
  const passedSteps = steps.filter((s) => s.result.status === 'PASSED' || s.result.status === 'FIXED_BY_AI').length;
  const params = Object.entries(testCase.parameters);
  const command = step?.commands[commandIndex];

  return (
    <div className="mx-auto flex max-w-[1400px] flex-col gap-5 px-8 py-6">
      <nav aria-label={Strings.reportBreadcrumb} className="text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to={`/${projectId}/executions`} className="focus-ring rounded hover:text-brand-700 hover:underline">
              {Strings.reportExecutions}
            </Link>
          </li>
          {run && (
            <>
              <li aria-hidden="true">
                <ChevronRight className="size-4 text-slate-400" />
              </li>
              <li>
                <Link to={`/${projectId}/run-report/${run.id}`} className="focus-ring rounded hover:text-brand-700 hover:underline">
                  {run.name}
                </Link>
              </li>
            </>
          )}
        </ol>
      </nav>

      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-slate-500">{testCase.featureName}</p>
          <h1 className="mt-0.5 truncate text-2xl font-semibold tracking-tight text-slate-900">{testCase.scenarioName}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
            <span>
              {Strings.reportStarted}{' '}
              <time dateTime={testCase.result.startTime} data-testid="report-started">
                {started.date} · {started.time}
              </time>
            </span>
            <ReportTimeZoneSelect zone={zone} onZone={setZone} />
          </p>
          <div className="mt-2">
            <ReportFiles owner={owner} testCase={testCase} />
          </div>
        </div>
        <div className="grid grid-cols-3 gap-3">
          <SummaryCard label={Strings.reportDuration} testId="summary-duration">
            {durationText(durationMs(testCase.result.startTime, testCase.result.endTime))}
          </SummaryCard>
          <SummaryCard label={Strings.reportStatus} testId="summary-status">
            <span className="flex flex-wrap items-center gap-1.5">
              <StatusBadge status={testCase.result.status} />
              <AiRetrainBadge label={aiRetrainLabel(testCase)} />
              <FlakyBadge testCase={testCase} />
            </span>
          </SummaryCard>
          <SummaryCard label={Strings.reportSteps} testId="summary-steps">
            {passedSteps} / {steps.length}
          </SummaryCard>
        </div>
      </div>

      {previous}

      {params.length > 0 && (
        <section
          aria-label={Strings.reportValuesUsed}
          className="flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 bg-white px-4 py-3"
        >
          <h2 className="mr-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">{Strings.reportValuesUsed}</h2>
          {params.map(([key, value]) => (
            <span key={key} className="rounded-md bg-slate-100 px-2 py-1 font-mono text-xs text-slate-800">
              {key}: {maskValue(value)}
            </span>
          ))}
        </section>
      )}

      {testCase.result.message && testCase.result.status !== 'PASSED' && (
        <p role="note" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 font-mono text-xs whitespace-pre-wrap text-red-900">
          {testCase.result.message}
        </p>
      )}

      {steps.length === 0 ? (
        <p role="status" className="rounded-xl border border-slate-200 bg-white p-10 text-center text-sm text-slate-600">
          {Strings.emptySteps}
        </p>
      ) : (
        <div className="grid grid-cols-[minmax(20rem,5fr)_7fr] items-start gap-5">
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
                  onSelect={() => selectStep(index)}
                  onSelectCommand={(ci) => {
                    if (index !== stepIndex) selectStep(index);
                    setCommandIndex(ci);
                  }}
                />
              ))}
            </ol>
          </section>

          <section
            aria-label={Strings.reportDetails}
            className="sticky top-4 flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white"
          >
            <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
              <div className="min-w-0">
                <p className="text-xs text-slate-500">{step ? `${step.keyword.trim()} ${step.text}` : ''}</p>
                <h2 className="truncate text-sm font-semibold text-slate-900" data-testid="command-title">
                  {command ? commandTitle(command) : Strings.emptyOutput}
                </h2>
                {command && (
                  <p className="mt-0.5 flex items-center gap-2 text-xs text-slate-500">
                    <StatusBadge status={command.result.status} />
                    <span data-testid="command-time">{reportClockText(command.result.startTime, zone)}</span>
                    <span>{secondsText(durationMs(command.result.startTime, command.result.endTime))}</span>
                  </p>
                )}
              </div>
              <div className="flex shrink-0 gap-1">
                <Button variant="secondary" size="icon" aria-label="Previous command" onClick={() => go(-1)} disabled={position <= 0}>
                  <ChevronLeft aria-hidden="true" className="size-4" />
                </Button>
                <Button
                  variant="secondary"
                  size="icon"
                  aria-label="Next command"
                  onClick={() => go(1)}
                  disabled={position < 0 || position >= flat.length - 1}
                >
                  <ChevronRight aria-hidden="true" className="size-4" />
                </Button>
              </div>
            </div>
            {(command?.result.message ?? step?.result.message) && (
              <p className="border-b border-slate-200 bg-red-50 px-4 py-2 font-mono text-xs whitespace-pre-wrap text-red-900">
                {command?.result.message ?? step?.result.message}
              </p>
            )}
            {(command?.reasoning ?? step?.evaluation?.reasoning) && (
              <p className="border-b border-slate-200 px-4 py-2 text-xs text-slate-700">
                <span className="font-semibold">{Strings.reportReasoning}: </span>
                {command?.reasoning ?? step?.evaluation?.reasoning}
              </p>
            )}
            {step && (
              <DetailTabs
                tab={tab}
                onTab={setTab}
                step={step}
                command={command}
                zone={zone}
                testCase={testCase}
                owner={owner}
                onAllNetwork={() => setNetworkOpen(true)}
              />
            )}
          </section>
        </div>
      )}

      <CommentsPanel testCaseId={testCase.id} comments={testCase.comments} invalidate={invalidate} />
      <NetworkLogsDialog open={networkOpen} onOpenChange={setNetworkOpen} entries={testCase.networkLog} />
    </div>
  );
}

function SummaryCard({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="min-w-36 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-xs">
      <p className="text-xs font-medium text-slate-500">{label}</p>
      <div className="mt-1 text-lg font-semibold text-slate-900" data-testid={testId}>
        {children}
      </div>
    </div>
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

function DetailTabs({
  tab,
  onTab,
  step,
  command,
  zone,
  testCase,
  owner,
  onAllNetwork,
}: {
  tab: string;
  onTab: (tab: string) => void;
  step: ReportStep;
  command: Command | undefined;
  zone: ReportTimeZone;
  testCase: StoredTestCase;
  owner: ScreenshotOwner;
  onAllNetwork: () => void;
}) {
  const apiInfo = apiTestInfo(command);
  const verify = command?.info?.expectedValue !== undefined ? command.info : undefined;
  const extra: { id: string; label: string }[] = [
    ...(apiInfo ? [{ id: 'api', label: Strings.reportTabApi }] : []),
    ...(command?.payload ? [{ id: 'payload', label: Strings.reportTabPayload }] : []),
    ...(verify ? [{ id: 'verify', label: Strings.reportTabVerify }] : []),
    ...(command?.healing ? [{ id: 'healing', label: Strings.reportTabHealing }] : []),
  ];
  const base: { id: DetailTab; label: string }[] = [
    { id: 'screenshot', label: Strings.reportTabScreenshot },
    { id: 'network', label: Strings.reportTabNetwork },
    { id: 'console', label: Strings.reportTabConsole },
  ];
  const tabs = [...base, ...extra];
  const active = tabs.some((t) => t.id === tab) ? tab : 'screenshot';
  const tabClass =
    'focus-ring -mb-px border-b-2 border-transparent px-3 py-2.5 text-sm font-medium text-slate-600 hover:text-slate-900 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700';

  return (
    <Tabs.Root value={active} onValueChange={onTab} className="flex min-h-0 flex-col">
      <Tabs.List aria-label={Strings.reportDetails} className="flex gap-1 border-b border-slate-200 px-3">
        {tabs.map((t) => (
          <Tabs.Trigger key={t.id} value={t.id} className={tabClass}>
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value="screenshot" className="p-4 outline-none">
        <ScreenshotPane owner={owner} testCaseId={testCase.id} command={command} step={step} />
      </Tabs.Content>
      <Tabs.Content value="network" className="p-4 outline-none">
        <div className="mb-3 flex items-center justify-between gap-3">
          <p className="text-xs text-slate-600">{step.networkData.some(isFailingRequest) ? null : Strings.emptyNetworkIssues}</p>
          <Button variant="secondary" size="sm" onClick={onAllNetwork}>
            <List aria-hidden="true" className="size-3.5" />
            {Strings.reportNetworkAll}
          </Button>
        </div>
        <NetworkTable entries={step.networkData} />
      </Tabs.Content>
      <Tabs.Content value="console" className="p-4 outline-none">
        {step.webLog.length === 0 ? (
          <Empty>{Strings.emptyConsole}</Empty>
        ) : (
          <ul className="flex max-h-[28rem] flex-col divide-y divide-slate-100 overflow-y-auto font-mono text-xs">
            {step.webLog.map((entry, i) => (
              <li key={i} className={`flex gap-3 py-2 ${entry.type === 'error' ? 'text-red-800' : 'text-amber-900'}`}>
                <span className="w-16 shrink-0 font-sans font-semibold uppercase">{entry.type}</span>
                <span className="min-w-0 flex-1 break-words whitespace-pre-wrap">{entry.text}</span>
                <span className="shrink-0 text-slate-500">{reportClockText(entry.time, zone)}</span>
              </li>
            ))}
          </ul>
        )}
      </Tabs.Content>
      {apiInfo && (
        <Tabs.Content value="api" className="p-4 text-sm outline-none">
          <p className="mb-3 text-slate-700">
            <span className="font-semibold">{Strings.reportApiStatus}: </span>
            {apiInfo.status ?? '-'} {apiInfo.statusText ?? ''}
          </p>
          {apiInfo.tests === undefined ? (
            <Empty>{Strings.emptyApiTests}</Empty>
          ) : apiInfo.tests.length === 0 ? (
            <Empty>{Strings.emptyTests}</Empty>
          ) : (
            <>
              <p className="mb-2 text-xs text-slate-600">
                {Strings.reportApiTestsPassed(apiInfo.testsPassed ?? apiInfo.tests.filter((t) => t.passed).length, apiInfo.tests.length)}
              </p>
              <ul className="flex flex-col gap-1">
                {apiInfo.tests.map((t, i) => (
                  <li key={i} className="flex items-start gap-2">
                    <StatusIcon status={t.passed ? 'PASSED' : 'FAILED'} />
                    <span>
                      {t.name}
                      {t.message && <span className="block text-xs text-slate-500">{t.message}</span>}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </Tabs.Content>
      )}
      {command?.payload && (
        <Tabs.Content value="payload" className="p-4 outline-none">
          {command.payload.content ? (
            <pre className="max-h-[28rem] overflow-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">{command.payload.content}</pre>
          ) : (
            <Empty>{Strings.emptyOutput}</Empty>
          )}
        </Tabs.Content>
      )}
      {command?.healing && (
        <Tabs.Content value="healing" className="p-4 text-sm outline-none">
          <HealingDetail healing={command.healing} />
        </Tabs.Content>
      )}
      {verify && (
        <Tabs.Content value="verify" className="p-4 text-sm outline-none">
          <dl className="grid grid-cols-[8rem_1fr] gap-2">
            <dt className="font-semibold text-slate-700">{Strings.reportExpected}</dt>
            <dd className="font-mono text-xs">{maskValue(verify.expectedValue ?? '')}</dd>
            <dt className="font-semibold text-slate-700">{Strings.reportActual}</dt>
            <dd className="font-mono text-xs">{maskValue(verify.value ?? '')}</dd>
          </dl>
        </Tabs.Content>
      )}
    </Tabs.Root>
  );
}

/** What self-healing did for a command: healed or not, why, how sure, and what it weighed. */
function HealingDetail({ healing }: { healing: NonNullable<Command['healing']> }) {
  // A locator candidate as a person reads it: its kind, then what it looks for.
  const describe = (candidate: Record<string, unknown>) => {
    const { kind, role, name, value } = candidate as { kind?: string; role?: string; name?: string; value?: string };
    if (kind === 'role') return `role ${role ?? ''}${name === undefined ? '' : ` “${name}”`}`;
    if (kind === 'css') return `css ${value ?? ''}`;
    return `${kind === 'testId' ? 'test id' : kind === 'altText' ? 'alt text' : (kind ?? '')} “${value ?? ''}”`;
  };
  return (
    <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-2">
      <dt className="font-semibold text-slate-700">{Strings.reportHealingOutcome}</dt>
      <dd className={healing.healed ? 'text-violet-800' : 'text-red-800'}>
        {healing.healed ? Strings.reportHealingHealed : Strings.reportHealingNotHealed}
      </dd>
      <dt className="font-semibold text-slate-700">{Strings.reportHealingReason}</dt>
      <dd>{healing.reason}</dd>
      <dt className="font-semibold text-slate-700">{Strings.reportHealingConfidence}</dt>
      <dd className="font-mono text-xs">{healing.confidence.toFixed(3)}</dd>
      <dt className="font-semibold text-slate-700">{Strings.reportHealingElement}</dt>
      <dd>
        {healing.element}
        {healing.source && (
          <span className="block font-mono text-xs break-all text-slate-500">{`${healing.source.file} › ${healing.source.key}`}</span>
        )}
      </dd>
      <dt className="font-semibold text-slate-700">{Strings.reportHealingFailure}</dt>
      <dd>{Strings.reportHealingFailureKinds[healing.classification] ?? healing.classification}</dd>
      {healing.considered && healing.considered.length > 0 && (
        <>
          <dt className="font-semibold text-slate-700">{Strings.reportHealingConsidered}</dt>
          <dd>
            <ol className="flex list-decimal flex-col gap-1 pl-5">
              {healing.considered.map((candidate, i) => (
                <li key={i}>
                  {candidate.element} <span className="font-mono text-xs text-slate-500">{candidate.confidence.toFixed(3)}</span>
                </li>
              ))}
            </ol>
          </dd>
        </>
      )}
      {healing.locators && healing.locators.length > 0 && (
        <>
          <dt className="font-semibold text-slate-700">{Strings.reportHealingLocators}</dt>
          <dd>
            <ul className="flex flex-col gap-1 font-mono text-xs break-all">
              {healing.locators.map((candidate, i) => (
                <li key={i}>{describe(candidate)}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-lg bg-slate-50 px-4 py-10 text-center text-sm text-slate-600">
      {children}
    </p>
  );
}

function ScreenshotPane({
  owner,
  testCaseId,
  command,
  step,
}: {
  owner: ScreenshotOwner;
  testCaseId: string;
  command: Command | undefined;
  step: ReportStep;
}) {
  const shot = useScreenshot(owner, testCaseId, command?.screenshotId);
  if (!command?.screenshotId) return <Empty>{Strings.emptyScreenshot}</Empty>;
  if (shot.isPending) return <Empty>{Strings.reportScreenshotLoading}</Empty>;
  if (shot.isError) return <Empty>{Strings.emptyScreenshot}</Empty>;
  return (
    <img
      src={shot.data}
      alt={Strings.reportScreenshotAlt(`${step.keyword.trim()} ${step.text}`)}
      data-testid="screenshot"
      className="max-h-[32rem] w-full rounded-lg border border-slate-200 object-contain object-top"
    />
  );
}

/** Spec 02 §8/§9: status code with its label, type, size in kb, time with its bar. */
export function NetworkTable({ entries }: { entries: NetworkEntry[] }) {
  if (entries.length === 0) return <Empty>{Strings.emptyNetwork}</Empty>;
  return (
    // Focusable, so a keyboard can scroll it where it scrolls sideways (the detail pane at 1024 px).
    <div tabIndex={0} className="focus-ring @container max-h-[28rem] overflow-auto rounded-lg border border-slate-200">
      {/* The URL takes what the fixed columns (27rem) leave: room for a request's last segment whole
          beside the start of its address. In a box under 42rem (the detail pane at 1024 px) the
          table keeps 45rem, the URL 18rem, and scrolls sideways with URL, method and status in view. */}
      <table className="w-full min-w-[45rem] table-fixed text-left text-xs @min-[42rem]:min-w-0" aria-label={Strings.reportNetworkTitle}>
        <thead className="sticky top-0 bg-slate-50 text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {Strings.reportNetworkUrl}
            </th>
            <th scope="col" className="w-16 px-2 py-2 font-semibold">
              {Strings.reportNetworkMethod}
            </th>
            <th scope="col" className="w-28 px-2 py-2 font-semibold">
              {Strings.reportNetworkStatus}
            </th>
            <th scope="col" className="w-20 px-2 py-2 font-semibold">
              {Strings.reportNetworkType}
            </th>
            <th scope="col" className="w-20 px-2 py-2 text-right font-semibold">
              {Strings.reportNetworkSize}
            </th>
            <th scope="col" className="w-24 px-3 py-2 font-semibold">
              {Strings.reportNetworkTime}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((entry, i) => {
            const failing = isFailingRequest(entry);
            return (
              <tr key={i} data-testid="network-row" className={failing ? 'bg-red-50/50' : ''}>
                <td className="px-3 py-1.5" title={entry.requestUrl}>
                  <UrlText url={entry.requestUrl} />
                </td>
                <td className="px-2 py-1.5">{entry.method}</td>
                <td className={`px-2 py-1.5 ${failing ? 'font-semibold text-red-800' : 'text-slate-700'}`}>
                  {entry.status ?? ''} {httpStatusLabel(entry)}
                </td>
                <td className="truncate px-2 py-1.5">{entry.type}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{sizeText(entry.size)}</td>
                <td className="px-3 py-1.5">
                  <span className="flex items-center gap-2">
                    <span className="h-1.5 flex-1 rounded-full bg-slate-100">
                      <span className="block h-1.5 rounded-full bg-brand-500" style={{ width: `${timeBarPercent(entry.responseTime)}%` }} />
                    </span>
                    <span className="w-10 text-right tabular-nums">{secondsText(entry.responseTime)}</span>
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A URL with a middle ellipsis (issue 23): the start gives way first and the last segment stays,
 * since a page's requests mostly share their start. Screen readers and copy get the whole URL.
 */
function UrlText({ url }: { url: string }) {
  const { head, tail } = urlEllipsisParts(url);
  return (
    <span className="flex min-w-0" data-testid="network-url">
      {/* The tail keeps its width while the head shrinks to its first characters; only in a column
          narrower than both does the tail give way too. */}
      <span className="min-w-[4ch] truncate">{head}</span>
      <span className="max-w-[calc(100%-4ch)] shrink-0 truncate">{tail}</span>
    </span>
  );
}

/** The full network log of a scenario, with search and a failed-only filter (spec 02 §2). */
function NetworkLogsDialog({
  open,
  onOpenChange,
  entries,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  entries: NetworkEntry[];
}) {
  const [term, setTerm] = useState('');
  const [failedOnly, setFailedOnly] = useState(false);
  const needle = term.trim().toLowerCase();
  const shown = entries.filter((e) => (!failedOnly || isFailingRequest(e)) && (!needle || e.requestUrl.toLowerCase().includes(needle)));
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={Strings.reportNetworkTitle} size="xl" testId="network-dialog">
      <div className="flex flex-col gap-3">
        <div className="flex items-center gap-3">
          <input
            type="search"
            aria-label={Strings.reportNetworkSearch}
            placeholder={Strings.reportNetworkSearch}
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            className="h-9 flex-1 rounded-lg border border-slate-300 px-3 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
          />
          <select
            aria-label={Strings.reportNetworkFilter}
            value={failedOnly ? 'failed' : 'all'}
            onChange={(event) => setFailedOnly(event.target.value === 'failed')}
            className="h-9 rounded-lg border border-slate-300 px-2 text-sm"
          >
            <option value="all">{Strings.reportNetworkFilterAll}</option>
            <option value="failed">{Strings.reportNetworkFilterFailed}</option>
          </select>
        </div>
        {failedOnly && shown.length === 0 && entries.length > 0 ? (
          <Empty>{Strings.emptyNetworkIssues}</Empty>
        ) : (
          <NetworkTable entries={shown} />
        )}
      </div>
    </Modal>
  );
}
