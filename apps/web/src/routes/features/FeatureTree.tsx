import { useVirtualizer } from '@tanstack/react-virtual';
import { AlertTriangle, ChevronDown, ChevronRight, FileText, Search, SearchX } from 'lucide-react';
import { useEffect, useEffectEvent, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import { visibleRows, type TreeIndex, type TreeRow } from '../../features/scenarios/tree';

const ROW_HEIGHT = 34;

export interface TreeSelection {
  featureIndex: number;
  scenarioIndex: number | null;
}

interface FeatureTreeProps {
  index: TreeIndex;
  allTags: string[];
  selected: TreeSelection | null;
  onSelect: (selection: { featureIndex: number; scenarioIndex: number }) => void;
}

/**
 * The left tree of features and scenarios (spec 02 §2): search, tag filter, collapsible features,
 * arrow-key navigation. Only the rows in view are in the DOM, so 5,000 scenarios scroll smoothly.
 */
export function FeatureTree({ index, allTags, selected, onSelect }: FeatureTreeProps) {
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [focusIndex, setFocusIndex] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => visibleRows(index, { search, tags: tag ? [tag] : [], collapsed }), [index, search, tag, collapsed]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  const selectedKey =
    selected === null
      ? null
      : selected.scenarioIndex === null
        ? `${selected.featureIndex}`
        : `${selected.featureIndex}/${selected.scenarioIndex}`;

  // Bring the selected scenario into view when it changes from outside (URL, new scenario).
  // Only when the selection changes, not on every filter keystroke: the rows are read, not depended on.
  const revealSelected = useEffectEvent((key: string) => {
    const at = rows.findIndex((row) => row.key === key);
    if (at >= 0) {
      setFocusIndex(at);
      virtualizer.scrollToIndex(at, { align: 'auto' });
    }
  });
  useEffect(() => {
    if (selectedKey !== null) revealSelected(selectedKey);
  }, [selectedKey]);

  const toggle = (name: string, open: boolean) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (open) next.add(name);
      else next.delete(name);
      return next;
    });

  const activate = (row: TreeRow) => {
    if (row.kind === 'scenario') onSelect({ featureIndex: row.featureIndex, scenarioIndex: row.scenarioIndex });
    else toggle(row.name, row.open);
  };

  const moveFocus = (to: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, to));
    setFocusIndex(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-row-index="${next}"]`)?.focus());
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[focusIndex];
    if (!row) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveFocus(focusIndex + 1),
      ArrowUp: () => moveFocus(focusIndex - 1),
      Home: () => moveFocus(0),
      End: () => moveFocus(rows.length - 1),
      Enter: () => activate(row),
      ' ': () => activate(row),
      ArrowRight: () => {
        if (row.kind === 'feature' && !row.open) toggle(row.name, false);
        else moveFocus(focusIndex + 1);
      },
      ArrowLeft: () => {
        if (row.kind === 'feature' && row.open) toggle(row.name, true);
        else if (row.kind === 'scenario') moveFocus(rows.findIndex((r) => r.kind === 'feature' && r.featureIndex === row.featureIndex));
      },
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const tabStop = Math.min(focusIndex, rows.length - 1);
  const filtering = search.trim() !== '' || tag !== '';

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-tour="features">
      <div className="flex flex-col gap-2 border-b border-slate-200 p-3">
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-slate-400" />
          <input
            type="search"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setFocusIndex(0);
            }}
            aria-label={S.searchLabel}
            placeholder={S.searchPlaceholder}
            className="focus-ring h-9 w-full rounded-lg border border-slate-300 bg-white pr-2 pl-8 text-sm placeholder:text-slate-500"
          />
        </div>
        <label className="flex items-center gap-2 text-xs text-slate-600" data-tour="tags-filter">
          <span className="shrink-0">{S.tagFilterLabel}</span>
          <select
            value={tag}
            onChange={(event) => setTag(event.target.value)}
            className="focus-ring h-8 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-800"
          >
            <option value="">{S.tagFilterAll}</option>
            {allTags.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      {rows.length === 0 ? (
        // With no features at all the page's main panel says so, beside its New scenario button;
        // the tree speaks only for a search that matched nothing.
        filtering && (
          <div role="status" className="flex flex-col items-center gap-2 p-6 text-center text-sm text-slate-600">
            <SearchX aria-hidden="true" className="size-5 text-slate-400" />
            {S.noSearchResults}
          </div>
        )
      ) : (
        <div
          ref={scroller}
          role="tree"
          aria-label={S.treeLabel}
          onKeyDown={onKeyDown}
          className="min-h-0 flex-1 overflow-y-auto py-1"
          data-testid="feature-tree"
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              const isSelected = row.key === selectedKey;
              const common = {
                'data-row-index': item.index,
                tabIndex: item.index === tabStop ? 0 : -1,
                onFocus: () => setFocusIndex(item.index),
                onClick: () => activate(row),
                style: {
                  position: 'absolute' as const,
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                },
              };
              if (row.kind === 'feature') {
                const Chevron = row.open ? ChevronDown : ChevronRight;
                return (
                  <div
                    key={row.key}
                    role="treeitem"
                    aria-level={1}
                    aria-expanded={row.open}
                    aria-selected={false}
                    {...common}
                    className="focus-ring flex cursor-pointer items-center gap-1.5 px-2 text-sm font-medium text-slate-800 outline-none hover:bg-slate-100"
                  >
                    <Chevron aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                    <FileText aria-hidden="true" className="size-4 shrink-0 text-brand-600" />
                    <span className="min-w-0 flex-1 truncate" title={row.name}>
                      {row.name}
                    </span>
                    {row.invalid && <AlertTriangle aria-label={S.invalidFeature} className="size-4 shrink-0 text-amber-600" />}
                    <span className="shrink-0 text-xs font-normal text-slate-500">{row.count}</span>
                  </div>
                );
              }
              return (
                <div
                  key={row.key}
                  role="treeitem"
                  aria-level={2}
                  aria-selected={isSelected}
                  {...common}
                  className={`focus-ring flex cursor-pointer items-center truncate pr-2 pl-9 text-sm outline-none ${
                    isSelected ? 'bg-brand-50 font-medium text-brand-800' : 'text-slate-700 hover:bg-slate-100'
                  }`}
                  title={row.name}
                >
                  <span className="truncate">{row.name}</span>
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
