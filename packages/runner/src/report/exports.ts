import type { ReportStep, RunReport, RunStatus, TestCase } from '@rehearse/contract';

// JUnit XML and Cucumber JSON are derived from the run report, not from cucumber directly, so CI
// systems see exactly what the platform shows (same statuses, same masked values).

const seconds = (start: string, end: string) => Math.max(0, (Date.parse(end) - Date.parse(start)) / 1000);

/** A scenario counts as passed only when it PASSED (or was fixed); anything else fails the run. */
export function isPassed(status: RunStatus): boolean {
  return status === 'PASSED' || status === 'FIXED_BY_AI';
}

/** PASSED or FAILED for the whole run: it passes only when every scenario passed (spec 02 §4). */
export function runStatus(report: RunReport): 'PASSED' | 'FAILED' {
  return report.testCases.every((testCase) => isPassed(testCase.result.status)) ? 'PASSED' : 'FAILED';
}

function escapeXml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // XML 1.0 cannot hold most control characters, even escaped.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
  );
}

function stepLines(testCase: TestCase): string {
  return testCase.steps.map((step) => `${step.keyword} ${step.text} ... ${step.result.status.toLowerCase()}`).join('\n');
}

/** JUnit XML: a testsuite per feature, a testcase per scenario; undefined scenarios count as failures. */
export function toJUnitXml(report: RunReport): string {
  const byFeature = new Map<string, TestCase[]>();
  for (const testCase of report.testCases) {
    const list = byFeature.get(testCase.featureName) ?? [];
    list.push(testCase);
    byFeature.set(testCase.featureName, list);
  }
  const count = (cases: TestCase[], test: (status: RunStatus) => boolean) => cases.filter((c) => test(c.result.status)).length;
  const isFailure = (status: RunStatus) => status === 'FAILED' || status === 'UNDEFINED';
  const all = report.testCases;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="rehearse" tests="${all.length}" failures="${count(all, isFailure)}" skipped="${count(all, (s) => s === 'SKIPPED')}" errors="0" time="${seconds(report.startTime, report.endTime)}">`,
  ];
  for (const [feature, cases] of byFeature) {
    const suiteTime = cases.reduce((sum, c) => sum + seconds(c.result.startTime, c.result.endTime), 0);
    lines.push(
      `  <testsuite name="${escapeXml(feature)}" tests="${cases.length}" failures="${count(cases, isFailure)}" skipped="${count(cases, (s) => s === 'SKIPPED')}" errors="0" time="${suiteTime}" timestamp="${escapeXml(cases[0]!.result.startTime)}">`,
    );
    for (const testCase of cases) {
      const time = seconds(testCase.result.startTime, testCase.result.endTime);
      lines.push(`    <testcase classname="${escapeXml(feature)}" name="${escapeXml(testCase.scenarioName)}" time="${time}">`);
      const status = testCase.result.status;
      if (isFailure(status)) {
        const message = testCase.result.message ?? (status === 'UNDEFINED' ? 'Undefined step' : 'Failed');
        lines.push(`      <failure type="${status}" message="${escapeXml(message.split('\n')[0] ?? '')}">${escapeXml(`${message}\n\n${stepLines(testCase)}`)}</failure>`);
      } else if (status === 'SKIPPED') {
        lines.push('      <skipped/>');
      }
      lines.push(`      <system-out>${escapeXml(stepLines(testCase))}</system-out>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const nanos = (start: string, end: string) => Math.round(seconds(start, end) * 1e9);

function cucumberStep(step: ReportStep) {
  const status = step.result.status === 'FIXED_BY_AI' ? 'passed' : step.result.status.toLowerCase();
  return {
    keyword: step.type === 'Before' || step.type === 'After' ? step.keyword : `${step.keyword} `,
    name: step.text,
    ...(step.type === 'Before' || step.type === 'After' ? { hidden: true } : {}),
    result: {
      status,
      duration: nanos(step.result.startTime, step.result.endTime),
      ...(step.result.message ? { error_message: step.result.message } : {}),
    },
  };
}

/** Cucumber's (legacy) JSON format: features → elements (scenarios) → steps. */
export function toCucumberJson(report: RunReport): unknown[] {
  const features = new Map<string, { uri: string; name: string; elements: unknown[] }>();
  for (const testCase of report.testCases) {
    const feature = features.get(testCase.uri) ?? { uri: testCase.uri, name: testCase.featureName, elements: [] };
    features.set(testCase.uri, feature);
    const before = testCase.steps.filter((step) => step.type === 'Before');
    const after = testCase.steps.filter((step) => step.type === 'After');
    const steps = testCase.steps.filter((step) => step.type !== 'Before' && step.type !== 'After');
    feature.elements.push({
      id: `${slug(testCase.featureName)};${slug(testCase.scenarioName)}`,
      keyword: Object.keys(testCase.parameters).length > 0 ? 'Scenario Outline' : 'Scenario',
      type: 'scenario',
      name: testCase.scenarioName,
      description: '',
      tags: testCase.tags.map((name) => ({ name })),
      ...(before.length ? { before: before.map(cucumberStep) } : {}),
      steps: steps.map(cucumberStep),
      ...(after.length ? { after: after.map(cucumberStep) } : {}),
    });
  }
  return [...features.values()].map((feature) => ({
    id: slug(feature.name),
    uri: feature.uri,
    keyword: 'Feature',
    name: feature.name,
    description: '',
    line: 1,
    tags: [],
    elements: feature.elements,
  }));
}
