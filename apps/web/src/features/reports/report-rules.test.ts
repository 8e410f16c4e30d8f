import type { Outcome, WebLogEntry } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import {
  aiRetrainLabel,
  apiTestInfo,
  exampleValuesText,
  urlEllipsisParts,
  defaultCommandIndex,
  defaultStepIndex,
  defaultTab,
  envDisplayName,
  httpStatusLabel,
  maskValue,
  passRatio,
  secondsText,
  sizeText,
  timeBarPercent,
  ALL_TIME_RANGE_INDEX,
  TIME_RANGES,
} from './report-rules';

const outcome = (status: Outcome['status']): Outcome => ({ status, startTime: '2025-06-04T10:00:00Z', endTime: '2025-06-04T10:00:01Z' });
const step = (status: Outcome['status']) => ({ result: outcome(status) });
const command = (status: Outcome['status'], screenshotId?: string) => ({ result: outcome(status), screenshotId });
const log = (type: WebLogEntry['type']) => ({ type });
const request = (status: number | null, failed = false) => ({ status, failed });

describe('report step selection (spec 02 §4)', () => {
  it('selects the last passed or failed step by default', () => {
    expect(defaultStepIndex([step('PASSED'), step('FAILED'), step('SKIPPED'), step('UNDEFINED')])).toBe(1);
    expect(defaultStepIndex([step('PASSED'), step('PASSED'), step('SKIPPED')])).toBe(1);
  });

  it('selects the first step when none passed or failed', () => {
    expect(defaultStepIndex([step('SKIPPED'), step('SKIPPED')])).toBe(0);
  });

  it('opens a scenario that stopped on an undefined step on that step', () => {
    expect(defaultStepIndex([step('PASSED'), step('PASSED'), step('UNDEFINED'), step('SKIPPED')])).toBe(2);
    expect(defaultStepIndex([step('SKIPPED'), step('UNDEFINED')])).toBe(1);
  });

  it('opens the first non-passed command with a screenshot first', () => {
    const commands = [command('PASSED', 's1'), command('FAILED'), command('FAILED', 's3'), command('FAILED', 's4')];
    expect(defaultCommandIndex(commands)).toBe(2);
  });

  it('opens the last command when no non-passed one has a screenshot', () => {
    expect(defaultCommandIndex([command('PASSED', 's1'), command('FAILED'), command('PASSED', 's3')])).toBe(2);
    expect(defaultCommandIndex([])).toBe(0);
  });

  it('opens Network if failing requests exist, else Console if errors exist, else Screenshot', () => {
    const errorLog = [log('error')];
    expect(defaultTab([request(200), request(500)], errorLog)).toBe('network');
    expect(defaultTab([request(200), request(null, true)], [])).toBe('network');
    expect(defaultTab([request(200)], errorLog)).toBe('console');
    expect(defaultTab([request(302)], [{ type: 'warning' }])).toBe('screenshot');
  });
});

describe('HTTP status labels in the network view (spec 02 §8)', () => {
  it('labels 1xx Information, 2xx Success, 3xx Permanent Redirect, 4xx Bad Request, 5xx Bad Gateway', () => {
    expect([101, 204, 304, 404, 503].map((status) => httpStatusLabel(request(status)))).toEqual([
      'Information',
      'Success',
      'Permanent Redirect',
      'Bad Request',
      'Bad Gateway',
    ]);
  });

  it('labels anything else, and an aborted request, Failed', () => {
    expect([
      httpStatusLabel(request(99)),
      httpStatusLabel(request(600)),
      httpStatusLabel(request(200, true)),
      httpStatusLabel(request(null)),
    ]).toEqual(['Failed', 'Failed', 'Failed', 'Failed']);
  });
});

describe('report values (spec 02 §4, §5, §9)', () => {
  it("shows secret values starting with 'mask:' as 'mask:****'", () => {
    expect([maskValue('mask:hunter2'), maskValue('hunter2')]).toEqual(['mask:****', 'hunter2']);
  });

  it('draws the network time bar as time/1000 s in percent, capped at 100', () => {
    expect([timeBarPercent(250), timeBarPercent(4000), timeBarPercent(null)]).toEqual([25, 100, 0]);
  });

  it('gives sizes in kb with 2 decimals, durations in seconds with 1 decimal, and a dash without a response time', () => {
    expect([sizeText(1536), secondsText(1234), secondsText(null)]).toEqual(['1.50 kb', '1.2 s', '-']);
  });

  it('shows the pass ratio as passed / total (percent)', () => {
    expect([passRatio(3, 4), passRatio(0, 0)]).toEqual(['3 / 4 (75%)', '0 / 0 (0%)']);
  });

  it("labels a failed scenario retrained by AI 'fixed by AI' if the retrain passed, else 'failed by AI'", () => {
    const failed = { result: { status: 'FAILED' } };
    expect(aiRetrainLabel({ ...failed, retrainStats: { result: 'PASSED' } })).toBe('fixed by AI');
    expect(aiRetrainLabel({ ...failed, retrainStats: { result: 'FAILED' } })).toBe('failed by AI');
    expect(aiRetrainLabel(failed)).toBeNull();
  });
});

describe('report time ranges (spec 01 §9: last 24 hours, last week, last 2 weeks, all; days 1, 7, 14, 365)', () => {
  it("offers the spec's four ranges in order, 'All' being 365 days", () => {
    expect(TIME_RANGES.map((range) => range.label)).toEqual(['Last 24 hours', 'Last week', 'Last 2 weeks', 'All']);
    expect(TIME_RANGES.map((range) => range.days)).toEqual([1, 7, 14, 365]);
    expect(TIME_RANGES[ALL_TIME_RANGE_INDEX].label).toBe('All');
  });
});

describe('environment names on screen (spec 02 §9: shown without ".json")', () => {
  it('drops ".json", and the environments/ folder of a file path', () => {
    expect(envDisplayName('staging.json')).toBe('staging');
    expect(envDisplayName('environments/staging.json')).toBe('staging');
    expect(envDisplayName('staging')).toBe('staging');
  });
});

describe('report reading (issue 23)', () => {
  it('gives the API test tab to API commands only, not to a navigation that carries its HTTP status', () => {
    expect(apiTestInfo({ type: 'navigate', info: { url: 'http://shop.test/', status: 200, statusText: 'OK' } })).toBeUndefined();
    expect(apiTestInfo({ type: 'api', info: { status: 201 } })).toEqual({ status: 201 });
    expect(apiTestInfo({ type: 'api_assert', info: { tests: [], testsPassed: 0 } })).toEqual({ tests: [], testsPassed: 0 });
    expect(apiTestInfo({ type: 'click_element' })).toBeUndefined();
  });

  it('cuts a URL so its last segment and query always show', () => {
    const url = 'https://cdn.shop.test/assets/v2/build/0123456789abcdef/chunks/vendor-react-dom.js?v=42';
    const { head, tail } = urlEllipsisParts(url);
    expect(head + tail).toBe(url);
    expect(tail).toBe('/vendor-react-dom.js?v=42');
    const long = `https://shop.test/${'x'.repeat(60)}`;
    expect(urlEllipsisParts(long).tail).toBe('x'.repeat(32));
    expect(urlEllipsisParts('/a')).toEqual({ head: '', tail: '/a' });
  });

  it('names an outline row by its example values, masked', () => {
    expect(exampleValuesText({ item: 'backpack', password: 'mask:hunter2' })).toBe('item: backpack, password: mask:****');
    expect(exampleValuesText({})).toBe('');
  });
});
