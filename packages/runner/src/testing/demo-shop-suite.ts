import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { makeWorkspace, startDemoShop, type WorkspaceOptions } from './shop-workspace.js';

/**
 * For a test file that runs workspaces against the demo shop: starts the shop before its tests,
 * and afterwards stops it and removes every workspace it made. Call at the top of the file.
 */
export function useDemoShopWorkspaces(): { readonly baseUrl: string; workspace: (options?: Omit<WorkspaceOptions, 'baseUrl'>) => string } {
  let shop: { app: FastifyInstance; baseUrl: string } | undefined;
  const made: string[] = [];
  beforeAll(async () => {
    shop = await startDemoShop();
  });
  afterAll(async () => {
    await shop?.app.close();
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const started = () => {
    if (!shop) throw new Error('The demo shop starts in beforeAll; use it inside a test or hook.');
    return shop;
  };
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    workspace: (options = {}) => {
      const dir = makeWorkspace({ baseUrl: started().baseUrl, ...options });
      made.push(dir);
      return dir;
    },
  };
}
