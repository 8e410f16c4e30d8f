/**
 * Self-healing bench (issue 10 "Must show"): the suite of packages/runner/src/testing/healing-suite.ts
 * is recorded on the demo shop (v1), checked to pass there, then replayed on "version 2" of the
 * shop. Reports the share of broken steps healed correctly, healed wrongly (assertions apart) and
 * not healed. Target: ≥ 80 % healed correctly, 0 wrong heals on assertions.
 *
 *   npx tsx bench/healing.ts [--json] [--verbose]
 */
import { parseArgs } from 'node:util';
import { launchBrowser } from '../packages/runner/src/browser.js';
import {
  recordElements,
  replay,
  SCENARIOS,
  startShops,
  summarize,
  type ScenarioResult,
} from '../packages/runner/src/testing/healing-suite.js';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } } });

const shops = await startShops();
const browser = await launchBrowser({ browser: 'chromium', headless: true });
try {
  const recorded = await recordElements(browser, shops.v1);
  const v1: ScenarioResult[] = [];
  const v2: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) v1.push(await replay(browser, shops.v1, scenario, recorded, 2_000));
  for (const scenario of SCENARIOS) v2.push(await replay(browser, shops.v2, scenario, recorded, 1_000));
  const summary = summarize(v1, v2);
  const pct = (n: number) => (summary.broken === 0 ? '—' : `${((100 * n) / summary.broken).toFixed(1)} %`);
  if (values.json) {
    console.log(JSON.stringify({ summary, steps: v2.flatMap((scenario) => scenario.steps) }, null, 2));
  } else {
    console.log('Self-healing benchmark: demo shop v1 → v2');
    console.log(`  scenarios            ${summary.scenarios} (v1: ${summary.v1Passed} pass; v2 with healing: ${summary.v2Passed} pass)`);
    console.log(`  element steps        ${summary.steps}, broken on v2: ${summary.broken}`);
    console.log(`  healed correctly     ${summary.healedCorrectly} (${pct(summary.healedCorrectly)})   target ≥ 80 %`);
    console.log(
      `  healed wrongly       ${summary.healedWrongly} (${pct(summary.healedWrongly)}), on assertions: ${summary.healedWronglyOnAssertions}   target 0`,
    );
    console.log(`  not healed           ${summary.notHealed} (${pct(summary.notHealed)})`);
    if (values.verbose) {
      for (const step of v2.flatMap((scenario) => scenario.steps).filter((s) => s.outcome !== 'unbroken')) {
        console.log(`    ${step.outcome.padEnd(16)} ${step.scenario} › ${step.element} (${step.confidence}; ${step.reason})`);
      }
      for (const scenario of v1.filter((s) => !s.passed)) console.log(`    v1 FAILED: ${scenario.name}`);
    }
  }
  if (summary.v1Passed !== summary.scenarios) process.exitCode = 1;
} finally {
  await browser.close();
  await shops.app.close();
}
