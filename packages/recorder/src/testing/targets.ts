import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_SHOP_PATH, demoShopPlugin } from '@rehearse/demo-shop';
import { TODO_APP_PATH, todoAppPlugin } from '@rehearse/todo-app';
import type { RecordedCommand } from '@rehearse/contract';
import { generate } from '@rehearse/codegen';
import { runCli } from '@rehearse/runner/cli';
import { mutation } from '@rehearse/todomvc/mutations';
import { startTodoMvc } from '@rehearse/todomvc/testing';
import Fastify, { type FastifyInstance } from 'fastify';

/** The demo shop on a free port. */
export async function startDemoShop(): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = Fastify();
  await app.register(demoShopPlugin, { prefix: DEMO_SHOP_PATH, productDelayMs: 20 });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, baseUrl: `${address}${DEMO_SHOP_PATH}/` };
}

/** The todo app (rows without test ids or labelled checkboxes, double-click to edit, hash routes) on a free port. */
export async function startTodoApp(): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = Fastify();
  await app.register(todoAppPlugin, { prefix: TODO_APP_PATH });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, baseUrl: `${address}${TODO_APP_PATH}/` };
}

/**
 * TodoMVC's vanilla JS build (a third-party app) on a free port: as written, or with one of the
 * mutation bench's injected bugs (`apps/todomvc/src/mutations.ts`) when `mutationId` names one.
 */
export async function startTodoMvcApp(mutationId?: string): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const { app, urls } = await startTodoMvc(mutationId ? mutation(mutationId) : undefined);
  return { app, baseUrl: urls.vanillajs };
}

/**
 * A second application the recorder was not written for: a plain HTML page with a form, a table
 * that the form adds rows to, and a confirmation dialog. No test ids, no framework.
 */
export const PLAIN_APP_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Team roster</title>
<style>body{font-family:sans-serif;margin:2rem} table{border-collapse:collapse;margin-top:1rem} td,th{border:1px solid #999;padding:.3rem .6rem}</style>
</head><body>
<h1>Team roster</h1>
<form id="add">
  <p><label>Member name <input name="member" required></label></p>
  <p><label for="team">Team</label> <select id="team"><option>Platform</option><option>Mobile</option><option>QA</option></select></p>
  <p><input type="checkbox" id="lead"> <label for="lead">Team lead</label></p>
  <p><button type="submit">Add member</button></p>
</form>
<table aria-label="Members"><thead><tr><th>Name</th><th>Team</th><th>Lead</th><th></th></tr></thead><tbody></tbody></table>
<p id="status" role="status"></p>
<dialog id="confirm" aria-labelledby="confirm-title"><h2 id="confirm-title">Remove member?</h2>
<p id="confirm-text"></p><button id="yes">Remove</button> <button id="no">Keep</button></dialog>
<script>
const tbody = document.querySelector('tbody');
const dialog = document.getElementById('confirm');
let pending = null;
document.getElementById('add').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = e.target.member.value.trim();
  if (!name) return;
  const tr = document.createElement('tr');
  tr.innerHTML = '<td></td><td></td><td></td><td><button type="button"></button></td>';
  tr.cells[0].textContent = name;
  tr.cells[1].textContent = document.getElementById('team').value;
  tr.cells[2].textContent = document.getElementById('lead').checked ? 'yes' : 'no';
  const remove = tr.querySelector('button');
  remove.textContent = 'Remove ' + name;
  remove.addEventListener('click', () => { pending = tr; document.getElementById('confirm-text').textContent = name + ' leaves the roster.'; dialog.showModal(); });
  tbody.append(tr);
  document.getElementById('status').textContent = name + ' added';
  e.target.reset();
});
document.getElementById('yes').addEventListener('click', () => { const n = pending.cells[0].textContent; pending.remove(); dialog.close(); document.getElementById('status').textContent = n + ' removed'; });
document.getElementById('no').addEventListener('click', () => dialog.close());
</script></body></html>`;

/** Serves {@link PLAIN_APP_HTML} at `/roster/`. */
export async function startPlainApp(): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = Fastify();
  app.get('/roster/', async (_request, reply) => reply.type('text/html').send(PLAIN_APP_HTML));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, baseUrl: `${address}/roster/` };
}

/** A workspace folder with the given files (workspace-relative paths), an environment and config. */
export function workspaceWith(files: { path: string; content: string }[], baseUrl: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-rec-'));
  mkdirSync(path.join(dir, 'environments'), { recursive: true });
  writeFileSync(path.join(dir, 'environments', 'default.json'), JSON.stringify({ name: 'default', baseUrl }));
  writeFileSync(path.join(dir, 'rehearse.config.json'), JSON.stringify({ screenshots: 'off' }));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    writeFileSync(path.join(dir, file.path), file.content);
  }
  return dir;
}

/** Runs `rehearse run` on a fresh workspace of these files against `baseUrl` (test data from `data`), and removes it. */
export async function runWorkspace(files: { path: string; content: string }[], baseUrl: string, data?: unknown) {
  const dir = workspaceWith(files, baseUrl);
  if (data) files.push();
  const out: string[] = [];
  const args = ['run', '--env', 'environments/default.json', '--headless', '--out', `${dir}/report`];
  if (data) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/test-data.json`, JSON.stringify(data));
    args.push('--data', 'test-data.json');
  }
  const code = await runCli(args, {
    cwd: dir,
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => out.push(t) },
  });
  rmSync(dir, { recursive: true, force: true });
  return { code, output: out.join('') };
}

/** A recording as the publisher writes it (one scenario in a fresh workspace), run by rehearse run. */
export async function replayRecording(scenarioName: string, commands: RecordedCommand[], baseUrl: string) {
  const generated = generate({ scenarioName, commands, existing: new Map() });
  const feature = { path: 'features/recorded.feature', content: `Feature: Recorded\n\n${generated.scenarioText}\n` };
  return { generated, result: await runWorkspace([feature, ...generated.files], baseUrl) };
}
