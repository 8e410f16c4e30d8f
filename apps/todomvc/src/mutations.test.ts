import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MUTATIONS, mutation } from './mutations.js';
import { mutate, startTodoMvc } from './testing.js';

describe('the injected bugs', () => {
  it('are at least 30, each with its own id and a sentence of what breaks', () => {
    expect(MUTATIONS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(MUTATIONS.map((each) => each.id)).size).toBe(MUTATIONS.length);
    for (const each of MUTATIONS) expect(each.says.length).toBeGreaterThan(10);
  });

  it.each(MUTATIONS.map((each) => [each.id, each] as const))('%s changes its file at exactly one place', async (_id, each) => {
    const text = await readFile(new URL(`../public/${each.app}/${each.file}`, import.meta.url), 'utf8');
    const mutated = mutate(text, each);
    expect(mutated).not.toBe(text);
    expect(mutated.length - text.length).toBe(each.replace.length - each.find.length);
  });

  it('refuses a mutation whose text is missing or repeated, and an unknown id', () => {
    const base = { id: 'x', app: 'vanillajs' as const, file: 'a.js', replace: 'b', says: 'nothing at all' };
    expect(() => mutate('one two', { ...base, find: 'three' })).toThrow('Mutation x: the text to replace occurs nowhere in a.js');
    expect(() => mutate('two two', { ...base, find: 'two' })).toThrow('Mutation x: the text to replace occurs more than once in a.js');
    expect(() => mutation('no-such-bug')).toThrow('No mutation "no-such-bug"');
  });

  it('are served in place of the file, and only by the server started with one', async () => {
    const plain = await startTodoMvc();
    const broken = await startTodoMvc(mutation('counter-off-by-one'));
    try {
      const [before, after] = await Promise.all(
        [plain, broken].map((served) => fetch(`${served.urls.vanillajs}js/template.js`).then((response) => response.text())),
      );
      expect(before).toContain("'<strong>' + activeTodos + '</strong> item'");
      expect(after).toContain("'<strong>' + (activeTodos + 1) + '</strong> item'");
      expect((await fetch(`${plain.urls.vue}index.html`)).status).toBe(200);
      expect((await fetch(`${plain.urls.vue}bower_components/todomvc-common/base.css`)).status).toBe(200);
      expect((await fetch(`${plain.urls.vue}../vanillajs/js/app.js`)).status).toBe(200);
      expect((await fetch(`${plain.urls.vue}%2e%2e/%2e%2e/package.json`)).status).toBe(404);
      // The redesign is the vanilla app's code in new markup, and carries a bug given to the server.
      const redesigned = await fetch(`${broken.urls.redesign}js/template.js`).then((response) => response.text());
      expect(redesigned).toContain("'<strong>' + (activeTodos + 1) + '</strong> item'");
      expect(redesigned).toContain('<label class="task__box" for="task-done-{{id}}"></label>');
      expect(await fetch(`${plain.urls.redesign}index.html`).then((response) => response.text())).toContain('What do you need to do?');
    } finally {
      await Promise.all([plain.app.close(), broken.app.close()]);
    }
  });

  it('leave the redesign unserved, saying why, when it rewrites the text a bug changes', async () => {
    const served = await startTodoMvc(mutation('delete-button-gone'));
    try {
      expect((await fetch(`${served.urls.vanillajs}js/view.js`)).status).toBe(200);
      const refused = await fetch(`${served.urls.redesign}index.html`);
      expect(refused.status).toBe(404);
      expect(await refused.text()).toContain(
        'The redesign cannot carry this bug: Mutation redesign: row: the text to replace occurs nowhere',
      );
    } finally {
      await served.app.close();
    }
  });
});
