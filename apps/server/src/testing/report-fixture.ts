import type { RunReport } from '@rehearse/contract';

/** A 1×1 PNG, base64: the smallest real screenshot. */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * A run report of one passed scenario with one step, for tests that need a stored run and do not
 * care what it holds (fixtures for calls that read runs, test cases and comments).
 */
export function onePassedScenarioReport(featureName = 'Fixture', scenarioName = `${featureName} scenario`): RunReport {
  const time = new Date().toISOString();
  const outcome = { status: 'PASSED' as const, startTime: time, endTime: time };
  const env = { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' };
  return {
    env,
    startTime: time,
    endTime: time,
    mode: 'local',
    browser: 'chromium',
    viewport: { width: 1024, height: 768 },
    testCases: [
      {
        id: 'runner-1',
        scenarioName,
        featureName,
        uri: `features/${featureName.toLowerCase()}.feature`,
        tags: [],
        result: outcome,
        parameters: {},
        steps: [{ keyword: 'Given', type: 'Context', text: 'I open "/"', result: outcome, commands: [], networkData: [], webLog: [] }],
        env,
        webLog: [],
        networkLog: [],
      },
    ],
  };
}
