import * as Tabs from '@radix-ui/react-tabs';
import type { ApplicationMemory } from '@rehearse/contract';
import { Background, Position, ReactFlow, ReactFlowProvider, useReactFlow, useViewport, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { ArrowLeft, Minus, Plus, X } from 'lucide-react';
import { useMemo, useState } from 'react';
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
const COLUMN = 300;
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

/**
 * Routes as a tree by URL path: each route hangs from the nearest known route above it, columns
 * by depth. Pure and one pass, so 300 routes lay out instantly.
 */
export function layoutMemory(memory: ApplicationMemory): { nodes: Node[]; edges: Edge[] } {
  const routes = Object.keys(memory.paths).sort();
  const known = new Set(routes);
  const perColumn = new Map<number, number>();
  const edges: Edge[] = [];
  const nodes: Node[] = routes.map((route) => {
    const column = route.split('/').filter(Boolean).length;
    const row = perColumn.get(column) ?? 0;
    perColumn.set(column, row + 1);
    const parent = parentRoute(route, known);
    if (parent) edges.push({ id: `${parent}->${route}`, source: parent, target: route });
    const steps = Object.keys(memory.paths[route]!.pathsmap).length;
    return {
      id: route,
      position: { x: column * COLUMN, y: row * ROW },
      // Columns run left to right, so edges leave on the right and arrive on the left.
      sourcePosition: Position.Right,
      targetPosition: Position.Left,
      data: { label: `${route}\n${steps === 1 ? '1 step' : `${steps} steps`}` },
      style: { whiteSpace: 'pre-line', fontSize: 12, width: 220 },
    };
  });
  return { nodes, edges };
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

  return (
    <div className="flex h-full">
      <div className="relative min-w-0 flex-1" aria-label={Strings.memoryGraph} role="region" data-testid="memory-graph">
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
