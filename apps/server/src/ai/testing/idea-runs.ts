import type { ApplicationMemory, ScenarioIdea } from '@rehearse/contract';
import { RecorderSession } from '@rehearse/recorder';
import type { Page } from 'playwright-core';
import { runTodoWorkspace } from '../../../../../packages/runner/src/testing/todo-suite.js';
import { plainEnglishScenario } from '../ai.service.js';
import { translateFlow } from '../plain-english.js';

/**
 * Scenario ideas tried as a user gets them (issue 44), shared by the ideas tests of each target:
 * the app map as the recorder leaves it, and each idea written as scenario creation writes it and
 * run with the real runner in Chromium.
 */

/**
 * The map's pages as a recording leaves them (RecorderSession.recordedPages, which the server
 * stores as the map's recorded pages): `url` opened, `ready` once it has drawn, then `drive`.
 */
export async function recordedMap(
  url: string,
  baseUrl: string,
  ready: (page: Page) => Promise<unknown>,
  drive: (page: Page) => Promise<void> = async () => undefined,
): Promise<ApplicationMemory['paths']> {
  const session = await RecorderSession.start({ url, baseUrl, viewport: { width: 1024, height: 700 }, headless: true });
  try {
    await ready(session.activePage);
    await drive(session.activePage);
    await session.settleLastEffect();
    return Object.fromEntries(
      session.recordedPages().map((page) => [new URL(page.url).pathname, { pathsmap: {}, snapshot: page.ariaSnapshot }]),
    );
  } finally {
    await session.close();
  }
}

/** The ideas as one feature of scenarios, the way scenario creation writes each; throws on a line the grammar does not read. */
function featureOf(ideas: readonly ScenarioIdea[]): string {
  const scenarios = ideas.map((idea) => {
    const { steps, unmatched } = translateFlow(idea.flow);
    if (unmatched.length > 0) throw new Error(`idea "${idea.name}" has lines no step reads: ${unmatched.join(' | ')}`);
    return plainEnglishScenario(idea.name, steps, idea.parameters).text.replace(/^/gm, '  ');
  });
  return `Feature: Ideas\n\n${scenarios.join('\n\n')}\n`;
}

/** Runs the ideas on `baseUrl`: each idea's status by name, with the first line of its message unless it passed. */
export async function ideaStatuses(
  baseUrl: string,
  ideas: readonly ScenarioIdea[],
  commandTimeoutMs = 2_000,
): Promise<Record<string, string>> {
  const { report } = await runTodoWorkspace(
    baseUrl,
    { 'ideas.feature': featureOf(ideas) },
    { config: { screenshots: 'off', commandTimeoutMs } },
  );
  return Object.fromEntries(
    (report?.testCases ?? []).map((testCase) => [
      testCase.scenarioName,
      `${testCase.result.status}${testCase.result.status === 'PASSED' ? '' : `: ${testCase.result.message?.split('\n')[0]}`}`,
    ]),
  );
}
