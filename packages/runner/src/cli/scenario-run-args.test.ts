import { scenarioRunArgs } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { parse, RUN_OPTIONS } from './args.js';

// The server's "Run scenario", a worker thread and a warm runner all start `rehearse run` through
// `scenarioRunArgs`; what it spells must be what `rehearse run` reads.
describe('the command line of one scenario run', () => {
  it('parses, with every option `rehearse run` knows, to what the caller asked for', () => {
    const [command, ...args] = scenarioRunArgs({
      server: 'http://127.0.0.1:3000',
      projectId: 'p-1',
      branch: 'main',
      commit: 'a'.repeat(40),
      envFile: 'environments/local.json',
      browser: 'chromium',
      viewport: '1280x720',
      heal: true,
      scenarioName: 'Buy a mug',
      appendTo: { runId: 'r-1', uploadKey: 'j-1' },
      out: '/tmp/report',
      resultFile: '/tmp/result.json',
      featurePath: 'features/shop.feature',
    });
    expect(command).toBe('run');
    const { values, positionals } = parse(args, RUN_OPTIONS);
    expect(positionals).toEqual(['features/shop.feature']);
    expect(values).toMatchObject({
      server: 'http://127.0.0.1:3000',
      project: 'p-1',
      branch: 'main',
      commit: 'a'.repeat(40),
      env: 'environments/local.json',
      headless: true,
      browser: 'chromium',
      viewport: '1280x720',
      heal: true,
      scenario: 'Buy a mug',
      'append-to': 'r-1',
      'upload-key': 'j-1',
      out: '/tmp/report',
      'result-file': '/tmp/result.json',
    });
  });

  it('leaves out what the caller did not give, so the runner falls back to its own defaults', () => {
    const args = scenarioRunArgs({
      server: 's',
      projectId: 'p',
      branch: 'b',
      commit: null,
      envFile: 'environments/e.json',
      scenarioName: 'S',
      out: 'o',
      resultFile: 'r',
      featurePath: 'f',
    });
    for (const option of ['--commit', '--browser', '--viewport', '--heal', '--append-to', '--upload-key'])
      expect(args).not.toContain(option);
  });
});
