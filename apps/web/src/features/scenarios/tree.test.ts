import type { FeatureSummary, ScenarioSummary } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { buildTreeIndex, visibleRows, type TreeFilter } from './tree';

const scenario = (name: string, tags: string[] = []): ScenarioSummary => ({
  type: 'Scenario',
  name,
  content: '',
  tags,
  effectiveTags: tags,
  examplesTags: [],
  line: 1,
});
const feature = (name: string, scenarios: ScenarioSummary[], errors: string[] = []): FeatureSummary => ({
  name: `${name}.feature`,
  path: `features/${name}.feature`,
  featureName: name,
  description: '',
  tags: [],
  content: '',
  scenarios,
  errors,
});

const INDEX = buildTreeIndex([
  feature('checkout', [scenario('Pay by card', ['@smoke']), scenario('Empty the cart', ['@cart'])]),
  feature('login', [scenario('Sign in', ['@smoke']), scenario('Wrong password')]),
  feature('broken', [], ['line 3: expected a step']),
]);
const none: TreeFilter = { search: '', tags: [], collapsed: new Set() };
const names = (filter: TreeFilter) => visibleRows(INDEX, filter).map((row) => (row.kind === 'feature' ? `${row.name}/` : row.name));

describe('the features tree filter', () => {
  it('shows every feature with its scenarios when nothing filters', () => {
    expect(names(none)).toEqual(['checkout/', 'Pay by card', 'Empty the cart', 'login/', 'Sign in', 'Wrong password', 'broken/']);
  });

  it('finds scenarios by name, case-insensitively, under their feature only', () => {
    expect(names({ ...none, search: '  CART ' })).toEqual(['checkout/', 'Empty the cart']);
  });

  it('shows all scenarios of a feature whose name matches', () => {
    expect(names({ ...none, search: 'log' })).toEqual(['login/', 'Sign in', 'Wrong password']);
  });

  it('keeps only scenarios carrying one of the chosen tags, hiding features left empty', () => {
    expect(names({ ...none, tags: ['@smoke'] })).toEqual(['checkout/', 'Pay by card', 'login/', 'Sign in']);
  });

  it('combines search and tags', () => {
    expect(names({ ...none, search: 'login', tags: ['@smoke'] })).toEqual(['login/', 'Sign in']);
  });

  it("hides a collapsed feature's scenarios, but not while searching", () => {
    const collapsed = new Set(['checkout']);
    expect(names({ ...none, collapsed })).toEqual(['checkout/', 'login/', 'Sign in', 'Wrong password', 'broken/']);
    expect(names({ ...none, search: 'pay', collapsed })).toEqual(['checkout/', 'Pay by card']);
  });

  it('marks a feature whose file does not parse and counts the scenarios shown', () => {
    const rows = visibleRows(INDEX, { ...none, tags: ['@cart'] });
    expect(rows[0]).toMatchObject({ kind: 'feature', name: 'checkout', count: 1, invalid: false });
    expect(visibleRows(INDEX, none).find((row) => row.name === 'broken')).toMatchObject({ invalid: true, count: 0 });
  });
});
