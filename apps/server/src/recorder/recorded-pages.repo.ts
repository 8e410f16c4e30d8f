import { navigationEdges, type ApplicationMemory, type MemoryEdge, type RecordedCommand, type RecordedPage } from '@rehearse/contract';
import { generate } from '@rehearse/codegen';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { recordedNavigations, recordedPages } from '../db/schema.js';

type PathEntry = ApplicationMemory['paths'][string];

function routeOf(url: string | undefined, fallback: string): string {
  try {
    return url ? new URL(url).pathname : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The navigations of one recording, in order: consecutive commands on different routes, then any
 * page where nothing was recorded (the flow ended by arriving there), reached from the last route.
 */
function recordedNavigationsOf(pages: RecordedPage[], commands: RecordedCommand[]): MemoryEdge[] {
  const visited: string[] = [];
  for (const command of commands) {
    const route = routeOf(command.url, command.path);
    if (visited.at(-1) !== route) visited.push(route);
  }
  for (const page of pages) {
    const route = routeOf(page.url, page.path);
    if (!visited.includes(route)) visited.push(route);
  }
  return navigationEdges(visited);
}

/**
 * The recorder's part of the application memory (DESIGN §7): each page a published recording
 * visited, keyed by route like the runs' part (the URL's path), with its ARIA snapshot and the
 * steps recorded there.
 */
export class RecordedPagesRepo {
  constructor(private readonly db: Db) {}

  async remember(projectId: string, pages: RecordedPage[], commands: RecordedCommand[]): Promise<void> {
    const steps = generate({ scenarioName: 'memory', commands, existing: new Map() }).steps;
    const byRoute = new Map<string, { snapshot: string; steps: PathEntry['pathsmap'] }>();
    for (const page of pages) byRoute.set(routeOf(page.url, page.path), { snapshot: page.ariaSnapshot, steps: {} });
    commands.forEach((command, index) => {
      const step = steps[index];
      if (!step) return;
      const route = routeOf(command.url, command.path);
      const entry = byRoute.get(route) ?? { snapshot: '', steps: {} };
      entry.steps[`${step.keyword} ${step.text}`] = {
        commandsLog: [
          {
            type: command.type,
            element_name: command.element?.name,
            value: command.secret ? 'secret:****' : command.value,
            selectors: command.element?.locators,
          },
        ],
        path: route,
      };
      byRoute.set(route, entry);
    });
    const navigations = recordedNavigationsOf(pages, commands);
    if (navigations.length > 0)
      await this.db
        .insert(recordedNavigations)
        .values(navigations.map(({ from, to }) => ({ projectId, fromRoute: from, toRoute: to })))
        .onConflictDoUpdate({
          target: [recordedNavigations.projectId, recordedNavigations.fromRoute, recordedNavigations.toRoute],
          set: { updatedAt: sql`now()` },
        });
    for (const [route, entry] of byRoute) {
      await this.db
        .insert(recordedPages)
        .values({ projectId, route, snapshot: entry.snapshot, steps: entry.steps })
        .onConflictDoUpdate({
          target: [recordedPages.projectId, recordedPages.route],
          set: {
            // An empty snapshot (a route only seen through a command's URL) keeps the stored one.
            snapshot: sql`case when ${entry.snapshot} = '' then ${recordedPages.snapshot} else ${entry.snapshot} end`,
            steps: sql`${recordedPages.steps} || ${JSON.stringify(entry.steps)}::jsonb`,
            updatedAt: sql`now()`,
          },
        });
    }
  }

  /** The project's recorded routes and the navigations between them. */
  async memory(projectId: string): Promise<ApplicationMemory> {
    const rows = await this.db.select().from(recordedPages).where(eq(recordedPages.projectId, projectId));
    const paths: ApplicationMemory['paths'] = {};
    for (const row of rows) paths[row.route] = { snapshot: row.snapshot, pathsmap: row.steps as PathEntry['pathsmap'] };
    const navigations = await this.db
      .select({ from: recordedNavigations.fromRoute, to: recordedNavigations.toRoute })
      .from(recordedNavigations)
      .where(eq(recordedNavigations.projectId, projectId));
    return { paths, edges: navigations };
  }
}
