import * as Tabs from '@radix-ui/react-tabs';
import type { ApplicationMemory } from '@rehearse/contract';
import {
  Background,
  MarkerType,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useViewport,
  type Edge,
  type Node,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { ArrowLeft, Minus, Plus, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { useApplicationMemory } from '../../features/reports/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

/** Spec 02 §5/§9: graph zoom 0.5 to 2, in steps of 0.1. */
const MIN_ZOOM = 0.5;
const MAX_ZOOM = 2;
const ZOOM_STEP = 0.1;
const COLUMN = 320;
const ROW = 90;

/** The nearest known route above `route` by path segments ('/shop/cart' → '/shop', else '/'). */
function parentRoute(route: string, known: Set<string>): string | null {
  const segments = route.split('/').filter(Boolean);
  for (let n = segments.length - 1; n >= 0; n -= 1) {
    const candidate = `/${segments.slice(0, n).join('/')}`;
    if (candidate !== route && known.has(candidate)) return candidate;
  }
  return null;
}

/** Navigations (solid arrows) and path links (dashed) are told apart by class, for CSS and tests. */
const NAVIGATION_EDGE = 'memory-edge-navigation';
const PATH_EDGE = 'memory-edge-path';

/**
 * Routes as a graph: the navigations runs and recordings took (which page led to which) as
 * arrows; a route no navigation reaches hangs from the nearest known route above it by path
 * (dashed), so no route floats alone. Columns are the distance from a route nothing leads to, so
 * a flow reads left to right. Pure and linear, so 300 routes lay out instantly.
 */
export function layoutMemory(memory: ApplicationMemory): { nodes: Node[]; edges: Edge[] } {
  const routes = Object.keys(memory.paths).sort();
  const known = new Set(routes);
  const edges: Edge[] = [];
  const joined = new Set<string>();
  for (const { from, to } of memory.edges) {
    if (!known.has(from) || !known.has(to) || from === to || joined.has(`${from}\n${to}`)) continue;
    joined.add(`${from}\n${to}`);
    edges.push({
      id: `nav:${from}->${to}`,
      source: from,
      target: to,
      className: NAVIGATION_EDGE,
      markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18, color: '#4f46e5' },
      style: { stroke: '#4f46e5', strokeWidth: 2 },
    });
  }
  const reached = new Set(edges.map((edge) => edge.target));
  for (const route of routes) {
    const parent = parentRoute(route, known);
    // A dashed line to a route a flow already reaches would run behind that flow's arrows.
    if (!parent || reached.has(route) || joined.has(`${route}\n${parent}`)) continue;
    edges.push({
      id: `path:${parent}->${route}`,
      source: parent,
      target: route,
      className: PATH_EDGE,
      style: { stroke: '#94a3b8', strokeDasharray: '6 4' },
    });
  }
  const column = columnsOf(routes, edges, known);
  const perColumn = new Map<number, number>();
  const nodes: Node[] = routes.map((route) => {
    const x = column.get(route) ?? 0;
    const row = perColumn.get(x) ?? 0;
    perColumn.set(x, row + 1);
    const steps = Object.keys(memory.paths[route]!.pathsmap).length;
    return {
      id: route,
      position: { x: x * COLUMN, y: row * ROW },
      // Columns run left to right, so edges leave on the right and arrive on the left.
      sourcePosition: Position.Right,
      targetPosition: Position.Left,
      data: { label: `${route}\n${steps === 1 ? '1 step' : `${steps} steps`}` },
      style: { whiteSpace: 'pre-line', fontSize: 12, width: 220 },
    };
  });
  return { nodes, edges };
}

/**
 * Each route's column: breadth-first along the navigations from the routes a flow starts at, so a
 * flow reads left to right; a route no navigation reaches sits one column right of its parent path.
 */
function columnsOf(routes: string[], edges: Edge[], known: Set<string>): Map<string, number> {
  const next = new Map<string, string[]>();
  const reached = new Set<string>();
  for (const edge of edges) {
    if (edge.className !== NAVIGATION_EDGE) continue;
    next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);
    reached.add(edge.target);
  }
  const column = new Map<string, number>();
  const walk = (start: string, at: number) => {
    column.set(start, at);
    const queue = [start];
    for (let i = 0; i < queue.length; i += 1) {
      const route = queue[i]!;
      for (const target of next.get(route) ?? []) {
        if (column.has(target)) continue;
        column.set(target, column.get(route)! + 1);
        queue.push(target);
      }
    }
  };
  for (const route of routes) if (!reached.has(route) && next.has(route)) walk(route, 0);
  // Sorted, so a parent path ('/shop') is placed before the routes under it ('/shop/cart').
  for (const route of routes) {
    if (column.has(route)) continue;
    const parent = parentRoute(route, known);
    walk(route, parent !== null && column.has(parent) ? column.get(parent)! + 1 : 0);
  }
  return column;
}

/** The application map (spec 02 §2 "Application map"): routes seen in runs, zoom 50-200 %, a side panel per route. */
export function MemoryPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(Strings.memoryTitle);
  const memory = useApplicationMemory(project.id);
  const routes = memory.data ? Object.keys(memory.data.paths).length : 0;
  return (
    <div className="flex h-full min-h-0 flex-col gap-4 px-8 py-6">
      <Link
        to={`/${project.id}/dashboard`}
        className="focus-ring inline-flex w-fit items-center gap-1 rounded text-sm text-slate-600 hover:text-brand-700"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {Strings.memoryBack}
      </Link>
      <div className="flex items-end justify-between">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.memoryTitle}</h1>
        {routes > 0 && <p className="text-sm text-slate-600">{Strings.memoryRoutes(routes)}</p>}
      </div>
      <div className="min-h-0 flex-1 overflow-hidden rounded-xl border border-slate-200 bg-white">
        {memory.isPending ? (
          <FullPageSpinner label={Strings.memoryLoading} />
        ) : memory.isError ? (
          <ErrorPanel title={Strings.memoryLoadFailed} detail={errorMessage(memory.error)} onRetry={() => void memory.refetch()} />
        ) : routes === 0 ? (
          <div role="status" className="flex h-full flex-col items-center justify-center gap-2 p-8 text-center">
            <p className="font-medium text-slate-800">{Strings.memoryEmpty}</p>
            <p className="text-sm text-slate-600">{Strings.memoryEmptyHint}</p>
          </div>
        ) : (
          <ReactFlowProvider>
            <Graph memory={memory.data} />
          </ReactFlowProvider>
        )}
      </div>
    </div>
  );
}

function Graph({ memory }: { memory: ApplicationMemory }) {
  const { nodes, edges } = useMemo(() => layoutMemory(memory), [memory]);
  const [selected, setSelected] = useState<string | null>(null);
  const flow = useReactFlow();
  const { zoom } = useViewport();
  const percent = Math.round(zoom * 100);
  const zoomBy = (delta: number) => void flow.zoomTo(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round((zoom + delta) * 10) / 10)));
  const route = selected ? memory.paths[selected] : undefined;

  // The panel (or a smaller window) narrows the graph: bring the chosen route and the routes its
  // navigations join back into view, never zooming in past the reader's zoom. A frame later, so the
  // graph's new width is measured first.
  const graph = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = graph.current;
    if (!selected || !element) return;
    const ids = new Set([selected]);
    for (const edge of memory.edges) {
      if (edge.from === selected) ids.add(edge.to);
      if (edge.to === selected) ids.add(edge.from);
    }
    let frame = 0;
    const fit = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        void flow.fitView({ nodes: [...ids].map((id) => ({ id })), maxZoom: flow.getZoom(), minZoom: MIN_ZOOM, padding: 0.2 });
      });
    };
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [selected, memory, flow]);

  return (
    <div className="flex h-full">
      <div ref={graph} className="relative min-w-0 flex-1" aria-label={Strings.memoryGraph} role="region" data-testid="memory-graph">
        <ReactFlow
          nodes={nodes}
          edges={edges}
          minZoom={MIN_ZOOM}
          maxZoom={MAX_ZOOM}
          fitView
          fitViewOptions={{ minZoom: MIN_ZOOM, maxZoom: 1 }}
          onlyRenderVisibleElements
          nodesDraggable={false}
          nodesConnectable={false}
          onNodeClick={(_, node) => setSelected(node.id)}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
        </ReactFlow>
        <div
          role="group"
          aria-label={Strings.memoryLegend}
          className="absolute top-3 left-3 z-10 flex items-center gap-4 rounded-lg border border-slate-200 bg-white px-3 py-2 text-xs text-slate-700 shadow-sm"
        >
          <span className="flex items-center gap-2">
            <svg aria-hidden="true" width="28" height="8" viewBox="0 0 28 8">
              <line x1="0" y1="4" x2="22" y2="4" stroke="#4f46e5" strokeWidth="2" />
              <path d="M20 0 L28 4 L20 8 Z" fill="#4f46e5" />
            </svg>
            {Strings.memoryLegendNavigation}
          </span>
          <span className="flex items-center gap-2">
            <svg aria-hidden="true" width="28" height="8" viewBox="0 0 28 8">
              <line x1="0" y1="4" x2="28" y2="4" stroke="#94a3b8" strokeWidth="1.5" strokeDasharray="6 4" />
            </svg>
            {Strings.memoryLegendPath}
          </span>
        </div>
        <div className="absolute bottom-3 left-3 z-10 flex items-center gap-1 rounded-lg border border-slate-200 bg-white p-1 shadow-sm">
          <Button
            size="icon"
            variant="ghost"
            aria-label={Strings.memoryZoomOut}
            disabled={zoom <= MIN_ZOOM + 0.001}
            onClick={() => zoomBy(-ZOOM_STEP)}
          >
            <Minus aria-hidden="true" className="size-4" />
          </Button>
          <output
            className="w-12 text-center text-xs font-semibold text-slate-800"
            data-testid="memory-zoom"
            aria-label={Strings.memoryZoom(percent)}
          >
            {percent}%
          </output>
          <Button
            size="icon"
            variant="ghost"
            aria-label={Strings.memoryZoomIn}
            disabled={zoom >= MAX_ZOOM - 0.001}
            onClick={() => zoomBy(ZOOM_STEP)}
          >
            <Plus aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
      {selected && route && (
        <aside aria-label={selected} className="flex w-96 shrink-0 flex-col border-l border-slate-200" data-testid="memory-panel">
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
            <h2 className="truncate font-mono text-sm font-semibold text-slate-900">{selected}</h2>
            <Button size="icon" variant="ghost" aria-label={Strings.memoryClosePanel} onClick={() => setSelected(null)}>
              <X aria-hidden="true" className="size-4" />
            </Button>
          </div>
          <Neighbours memory={memory} route={selected} onSelect={setSelected} />
          <Tabs.Root defaultValue="aria" className="flex min-h-0 flex-1 flex-col">
            <Tabs.List aria-label={selected} className="flex gap-1 border-b border-slate-200 px-3">
              {[
                ['aria', Strings.memoryTabAria],
                ['steps', Strings.memoryTabSteps],
              ].map(([id, label]) => (
                <Tabs.Trigger
                  key={id}
                  value={id!}
                  className="focus-ring -mb-px border-b-2 border-transparent px-3 py-2.5 text-sm font-medium text-slate-600 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700"
                >
                  {label}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="aria" className="min-h-0 flex-1 overflow-auto p-4 outline-none">
              {route.snapshot ? (
                <pre className="text-xs whitespace-pre-wrap text-slate-800">{route.snapshot}</pre>
              ) : (
                <p className="text-sm text-slate-600">{Strings.memoryNoSnapshot}</p>
              )}
            </Tabs.Content>
            <Tabs.Content value="steps" className="min-h-0 flex-1 overflow-auto p-4 outline-none">
              {Object.keys(route.pathsmap).length === 0 ? (
                <p className="text-sm text-slate-600">{Strings.memoryNoSteps}</p>
              ) : (
                <ul className="flex flex-col gap-2 text-sm">
                  {Object.entries(route.pathsmap).map(([title, step]) => (
                    <li key={title} className="rounded-lg border border-slate-200 px-3 py-2">
                      <p className="text-slate-900">{title}</p>
                      <p className="text-xs text-slate-600">
                        → <span className="font-mono">{step.path}</span> · {step.commandsLog.length}{' '}
                        {step.commandsLog.length === 1 ? 'command' : 'commands'}
                      </p>
                    </li>
                  ))}
                </ul>
              )}
            </Tabs.Content>
          </Tabs.Root>
        </aside>
      )}
    </div>
  );
}

/** The routes a navigation joins to `route`, both ways, each a button that opens that route's panel. */
function Neighbours({ memory, route, onSelect }: { memory: ApplicationMemory; route: string; onSelect: (route: string) => void }) {
  const known = (other: string) => other !== route && other in memory.paths;
  const from = [...new Set(memory.edges.filter((edge) => edge.to === route && known(edge.from)).map((edge) => edge.from))];
  const to = [...new Set(memory.edges.filter((edge) => edge.from === route && known(edge.to)).map((edge) => edge.to))];
  if (from.length === 0 && to.length === 0) return null;
  const rows: [string, string[]][] = [
    [Strings.memoryReachedFrom, from],
    [Strings.memoryLeadsTo, to],
  ];
  return (
    <dl className="flex flex-col gap-1.5 border-b border-slate-200 px-4 py-3 text-xs" data-testid="memory-neighbours">
      {rows
        .filter(([, routes]) => routes.length > 0)
        .map(([label, routes]) => (
          <div key={label} className="flex min-w-0 items-baseline gap-2">
            <dt className="w-24 shrink-0 font-medium text-slate-600">{label}</dt>
            <dd className="flex min-w-0 flex-wrap gap-1">
              {routes.map((other) => (
                <button
                  key={other}
                  type="button"
                  title={other}
                  onClick={() => onSelect(other)}
                  className="focus-ring max-w-full truncate rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-800 hover:bg-brand-50 hover:text-brand-700"
                >
                  {other}
                </button>
              ))}
            </dd>
          </div>
        ))}
    </dl>
  );
}
