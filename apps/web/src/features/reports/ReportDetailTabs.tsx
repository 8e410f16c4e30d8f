import * as Tabs from '@radix-ui/react-tabs';
import type { Command, ReportStep, StoredTestCase } from '@rehearse/contract';
import { List } from 'lucide-react';
import { Button } from '../../components/Button';
import { Strings } from '../../lib/strings';
import { EmptyPane } from './EmptyPane';
import { HealingDetail } from './HealingDetail';
import { NetworkTable } from './NetworkTable';
import type { ScreenshotOwner } from './queries';
import { apiTestInfo, isFailingRequest, maskValue, type DetailTab } from './report-rules';
import { reportClockText, type ReportTimeZone } from './report-time';
import { ScreenshotPane } from './ScreenshotPane';
import { StatusIcon } from './StatusBadge';

/**
 * The tabs of the detail pane (spec 02 §4): screenshot, network and console always; API test,
 * payload, verify and healing only when the selected command has them. A tab the command lacks
 * falls back to the screenshot.
 */
export function ReportDetailTabs({
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
          <EmptyPane>{Strings.emptyConsole}</EmptyPane>
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
            <EmptyPane>{Strings.emptyApiTests}</EmptyPane>
          ) : apiInfo.tests.length === 0 ? (
            <EmptyPane>{Strings.emptyTests}</EmptyPane>
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
            <EmptyPane>{Strings.emptyOutput}</EmptyPane>
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
