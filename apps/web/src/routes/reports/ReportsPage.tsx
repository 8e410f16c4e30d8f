import type { ReportListRow } from '@rehearse/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { CornerDownRight, Search, SearchX } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { Button } from '../../components/Button';
import { useAnyReports, useReportsList, type ReportsFilter } from '../../features/reports/queries';
import {
  ALL_TIME_RANGE_INDEX,
  durationText,
  envDisplayName,
  passRatio,
  SEARCH_DEBOUNCE_MS,
  TIME_RANGES,
} from '../../features/reports/report-rules';
import { reportDateTime } from '../../features/reports/report-time';
import { StatusBadge } from '../../features/reports/StatusBadge';
import { useReportTimeZone } from '../../features/reports/useReportTimeZone';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { StorageKeys } from '../../lib/storage-keys';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

const ROW_HEIGHT = 56;
const GROUP_HEIGHT = 44;
/** Fetch the next page when the last rendered row is this close to the end of what is loaded. */
const PREFETCH_ROWS = 15;
const GRID =
  'grid grid-cols-[minmax(10rem,2fr)_5.5rem_minmax(7rem,1fr)_minmax(7rem,0.8fr)_minmax(5rem,0.9fr)_7rem_5rem] items-center gap-3';

type Item = { kind: 'row'; row: ReportListRow; rerun: boolean } | { kind: 'group'; label: string; count: number };

function readDurationIndex(): number {
  const stored = Number(localStorage.getItem(StorageKeys.durationIndex));
  return Number.isInteger(stored) && stored >= 0 && stored < TIME_RANGES.length ? stored : 0;
}

/** Rows in list order; reruns nest under the run they re-ran (spec 02 §2). */
function flatten(rows: ReportListRow[]): Item[] {
  return rows.flatMap((row) => [
    { kind: 'row' as const, row, rerun: false },
    ...row.reruns.map((rerun) => ({ kind: 'row' as const, row: rerun, rerun: true })),
  ]);
}

/** Failed-step grouping: one header per failed step, in order of first appearance. */
function groupByFailedStep(rows: ReportListRow[]): Item[] {
  const groups = new Map<string, ReportListRow[]>();
  for (const row of rows) {
    const key = row.failedStep ?? Strings.reportsNoFailedStep;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups].flatMap(([label, members]) => [{ kind: 'group' as const, label, count: members.length }, ...flatten(members)]);
}

/**
 * The reports list (spec 02 §2 "Reports list", route runs): runs and scenario executions by
 * publishTime descending, loaded page by page as the user scrolls, with only the visible rows in
 * the DOM so 100,000 runs scroll like ten.
 */
export function ReportsPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${Strings.reportsTitle} · ${project.name}`);
  const navigate = useNavigate();
  const [durationIndex, setDurationIndex] = useState(readDurationIndex);
  const [grouping, setGrouping] = useState<'none' | 'failedStep'>('none');
  const [statusFilter, setStatusFilter] = useState<ReportsFilter['filterType']>('all');
  const [term, setTerm] = useState('');
  const search = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const ids = { search: useId(), range: useId(), group: useId(), status: useId() };

  // Spec 02 §2: grouping by failed step forces the Failed only filter.
  const filterType = grouping === 'failedStep' ? 'failed' : statusFilter;
  const filter: ReportsFilter = { days: TIME_RANGES[durationIndex]!.days, search, filterType };
  const list = useReportsList(project.id, filter);

  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.projectSummary.report) ?? [], [list.data]);
  const items = useMemo(() => (grouping === 'failedStep' ? groupByFailedStep(rows) : flatten(rows)), [rows, grouping]);
  const stats = list.data?.pages[0]?.projectSummary.stats;
  // A list emptied by a narrow range or a status filter says which, and offers every report, only
  // when the project has reports outside them; a project with none keeps "No reports yet".
  const narrowed = durationIndex !== ALL_TIME_RANGE_INDEX || filterType !== 'all';
  const emptyNarrowed = list.isSuccess && rows.length === 0 && !search && narrowed;
  const otherReports = useAnyReports(
    project.id,
    { search: '', filterType: 'all', days: TIME_RANGES[ALL_TIME_RANGE_INDEX].days },
    emptyNarrowed,
  );
  const chooseRange = (next: number) => {
    setDurationIndex(next);
    localStorage.setItem(StorageKeys.durationIndex, String(next));
  };
  const showAll = () => {
    chooseRange(ALL_TIME_RANGE_INDEX);
    setGrouping('none');
    setStatusFilter('all');
  };

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (items[index]?.kind === 'group' ? GROUP_HEIGHT : ROW_HEIGHT),
    overscan: 8,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= items.length - PREFETCH_ROWS) void fetchNextPage();
  }, [lastIndex, items.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // Both kinds open at run-report/{id}: a row's id is its run's, and a single scenario execution's
  // run report opens on its one scenario.
  const open = (row: ReportListRow) => navigate(`/${project.id}/run-report/${row.id}`);

  const selectClass =
    'h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-xs outline-none hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200';

  return (
    <div className="flex h-full min-h-0 flex-col gap-5 px-8 pt-8 pb-4">
      <div className="flex items-end justify-between gap-6">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.reportsTitle}</h1>
          <p className="mt-1 text-sm text-slate-600">{Strings.reportsIntro}</p>
        </div>
        {stats && (
          <p className="shrink-0 text-sm text-slate-500" data-testid="reports-count">
            {Strings.reportsCount(stats.total, stats.totalIsCapped)}
          </p>
        )}
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <div className="relative w-72">
          <label htmlFor={ids.search} className="sr-only">
            {Strings.reportsSearch}
          </label>
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
          <input
            id={ids.search}
            type="search"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            placeholder={Strings.reportsSearch}
            className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm shadow-xs outline-none placeholder:text-slate-500 hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
          />
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={ids.range} className="text-sm text-slate-600">
            {Strings.reportsRange}
          </label>
          <select
            id={ids.range}
            value={durationIndex}
            onChange={(event) => chooseRange(Number(event.target.value))}
            className={selectClass}
          >
            {TIME_RANGES.map((range, index) => (
              <option key={range.label} value={index}>
                {range.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={ids.group} className="text-sm text-slate-600">
            {Strings.reportsGrouping}
          </label>
          <select
            id={ids.group}
            value={grouping}
            onChange={(event) => setGrouping(event.target.value as 'none' | 'failedStep')}
            className={selectClass}
          >
            <option value="none">{Strings.reportsGroupNone}</option>
            <option value="failedStep">{Strings.reportsGroupFailedStep}</option>
          </select>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={ids.status} className="text-sm text-slate-600">
            {Strings.reportsStatusFilter}
          </label>
          <select
            id={ids.status}
            value={filterType}
            disabled={grouping === 'failedStep'}
            title={grouping === 'failedStep' ? Strings.reportsFailedOnlyForced : undefined}
            onChange={(event) => setStatusFilter(event.target.value as ReportsFilter['filterType'])}
            className={`${selectClass} disabled:bg-slate-50 disabled:text-slate-500`}
          >
            <option value="all">{Strings.reportsFilterAll}</option>
            <option value="passed">{Strings.reportsFilterPassed}</option>
            <option value="failed">{Strings.reportsFilterFailed}</option>
          </select>
        </div>
        {grouping === 'failedStep' && <p className="text-xs text-slate-500">{Strings.reportsFailedOnlyForced}</p>}
      </div>

      <div
        role="table"
        aria-label={Strings.reportsTitle}
        aria-rowcount={items.length > 0 ? items.length + 1 : undefined}
        aria-busy={list.isFetching || undefined}
        className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs"
      >
        <div role="rowgroup" className="border-b border-slate-200 bg-slate-50">
          <div role="row" aria-rowindex={1} className={`${GRID} px-4 py-3 text-xs font-semibold tracking-wide text-slate-600 uppercase`}>
            <span role="columnheader" className="truncate">
              {Strings.reportsColName}
            </span>
            <span role="columnheader" className="truncate">
              {Strings.reportsColStatus}
            </span>
            <span role="columnheader" className="truncate">
              {Strings.reportsColScenarios}
            </span>
            <span role="columnheader" className="truncate">
              {Strings.reportsColEnv}
            </span>
            <span role="columnheader" className="truncate">
              {Strings.reportsColBy}
            </span>
            <span role="columnheader" className="truncate">
              {Strings.reportsColStarted}
            </span>
            <span role="columnheader" className="truncate text-right">
              {Strings.reportsColDuration}
            </span>
          </div>
        </div>
        <div ref={scroller} role="rowgroup" className="min-h-0 flex-1 overflow-y-auto" data-testid="reports-scroller">
          {list.isPending || (emptyNarrowed && otherReports.isPending) ? (
            <WholeRow>
              <FullPageSpinner label={Strings.reportsLoading} />
            </WholeRow>
          ) : list.isError && rows.length === 0 ? (
            <WholeRow>
              <ErrorPanel title={Strings.reportsLoadFailed} detail={errorMessage(list.error)} onRetry={() => void list.refetch()} />
            </WholeRow>
          ) : items.length === 0 ? (
            <WholeRow>
              <div className="flex h-full min-h-48 flex-col items-center justify-center gap-2 p-8 text-center">
                {search ? (
                  <p role="status" className="inline-flex items-center gap-2 text-sm text-slate-600">
                    <SearchX aria-hidden="true" className="size-4" />
                    {Strings.reportsNoMatch(search)}
                  </p>
                ) : emptyNarrowed && otherReports.data ? (
                  <>
                    <div role="status" className="flex flex-col items-center gap-2">
                      <p className="font-medium text-slate-800">
                        {Strings.reportsEmptyInRange(TIME_RANGES[durationIndex]!.phrase, filterType === 'all' ? undefined : filterType)}
                      </p>
                      <p className="text-sm text-slate-500">
                        {filterType === 'all' ? Strings.reportsEmptyInRangeHint : Strings.reportsEmptyForStatusHint}
                      </p>
                    </div>
                    <Button variant="secondary" className="mt-2" onClick={showAll}>
                      {Strings.reportsShowAll}
                    </Button>
                  </>
                ) : (
                  <div role="status" className="flex flex-col items-center gap-2">
                    <p className="font-medium text-slate-800">{Strings.reportsEmpty}</p>
                    <p className="text-sm text-slate-500">{Strings.reportsEmptyHint}</p>
                  </div>
                )}
              </div>
            </WholeRow>
          ) : (
            <div style={{ height: virtualizer.getTotalSize() + ROW_HEIGHT }} className="relative">
              {virtualItems.map((virtual) => {
                const item = items[virtual.index]!;
                const style = { transform: `translateY(${virtual.start}px)`, height: virtual.size };
                if (item.kind === 'group') {
                  return (
                    <div
                      key={`g-${item.label}`}
                      role="row"
                      aria-rowindex={virtual.index + 2}
                      style={style}
                      className="absolute inset-x-0 top-0 flex items-center gap-3 border-b border-slate-200 bg-slate-100/80 px-4"
                    >
                      <span role="cell" className="truncate text-sm font-semibold text-slate-800">
                        {item.label}
                      </span>
                      <span role="cell" className="shrink-0 text-xs text-slate-600">
                        {Strings.reportsGroupCount(item.count)}
                      </span>
                    </div>
                  );
                }
                return (
                  <ReportRow
                    key={`${item.rerun ? 'r' : 'o'}-${item.row.id}`}
                    row={item.row}
                    rerun={item.rerun}
                    rowIndex={virtual.index + 2}
                    style={style}
                    href={`/${project.id}/run-report/${item.row.id}`}
                    onOpen={() => void open(item.row)}
                  />
                );
              })}
              <div
                className="absolute inset-x-0 flex items-center justify-center text-xs text-slate-500"
                style={{ top: virtualizer.getTotalSize(), height: ROW_HEIGHT }}
              >
                {isFetchingNextPage ? (
                  <span role="status">{Strings.reportsLoadingMore}</span>
                ) : list.isFetchNextPageError ? (
                  <button type="button" className="focus-ring rounded font-semibold text-brand-700" onClick={() => void fetchNextPage()}>
                    {Strings.retry}
                  </button>
                ) : hasNextPage ? null : (
                  Strings.reportsEnd
                )}
              </div>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** What stands in for the rows (waiting, an error, nothing to show): a table's row group may only hold rows, and axe checks it. */
function WholeRow({ children }: { children: React.ReactNode }) {
  return (
    <div role="row" className="h-full">
      <div role="cell" className="h-full">
        {children}
      </div>
    </div>
  );
}

function ReportRow({
  row,
  rerun,
  rowIndex,
  style,
  href,
  onOpen,
}: {
  row: ReportListRow;
  rerun: boolean;
  rowIndex: number;
  style: React.CSSProperties;
  href: string;
  onOpen: () => void;
}) {
  // The list keeps the browser's own clock, unlabelled as it always was; India time, once chosen
  // on a report, applies here too and says so.
  const [zone] = useReportTimeZone();
  const started = zone === 'ist' ? reportDateTime(row.startTime, 'ist') : formatDateTime(row.startTime);
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      data-testid="report-row"
      style={style}
      onClick={(event) => {
        // The name link handles its own clicks (and middle or modified clicks open a new tab).
        if ((event.target as HTMLElement).closest('a')) return;
        onOpen();
      }}
      className={`${GRID} absolute inset-x-0 top-0 cursor-pointer border-b border-slate-100 px-4 text-sm text-slate-700 hover:bg-slate-50 ${rerun ? 'bg-slate-50/60' : ''}`}
    >
      <span role="cell" className={`flex min-w-0 items-center gap-2 ${rerun ? 'pl-6' : ''}`}>
        {rerun && <CornerDownRight aria-label={Strings.reportsRerun} className="size-4 shrink-0 text-slate-400" />}
        <span className="min-w-0">
          <Link to={href} className="focus-ring block truncate rounded font-medium text-slate-900 hover:text-brand-700 hover:underline">
            {row.name}
          </Link>
          <span className="block truncate text-xs text-slate-500">
            {row.type === 'run' ? Strings.reportsTypeRun : Strings.reportsTypeScenario} ·{' '}
            {row.mode === 'cloud' ? Strings.modeCloud : Strings.modeLocal}
          </span>
        </span>
      </span>
      <span role="cell">
        <StatusBadge status={row.status} />
      </span>
      <span role="cell" className="tabular-nums">
        {passRatio(row.totalScenariosPassed, row.totalScenarios)}
        {row.flakyScenarios > 0 && (
          <span data-testid="flaky-count" className="block text-xs text-amber-800">
            {Strings.reportsFlakyCount(row.flakyScenarios)}
          </span>
        )}
      </span>
      <span role="cell" className="truncate">
        {envDisplayName(row.env.name)}
      </span>
      <span role="cell" className="truncate">
        {row.username || '-'}
      </span>
      <span role="cell" className="text-xs leading-tight">
        <time dateTime={row.startTime}>
          <span className="block text-slate-800">{started.date}</span>
          <span className="block text-slate-500">{started.time}</span>
        </time>
      </span>
      <span role="cell" className="text-right tabular-nums">
        {durationText(row.executionTime)}
      </span>
    </div>
  );
}
