/**
 * Self-healing bench with scenarios recorded through the recorder (issue 19 "Must show"), on the
 * todo app, on the demo shop and on TodoMVC (vanilla JS recorded; replayed on the Vue build, and on
 * our redesign of the vanilla app, apps/todomvc/src/redesign.ts): recorded on version 1, replayed
 * on version 1 (plain, then with --heal: any FIXED_BY_AI there is a wrong heal) and on version 2
 * with --heal. A step that fails on version 2 without a heal (its element found, the action
 * refused) counts as broken and not healed. Each broken step
 * is judged by the app's state after it (packages/recorder/src/testing/healing-bench.ts). It also
 * measures the healer alone: the same recordings keeping only their positional CSS paths.
 * Target per app: ≥ 80 % of broken steps healed correctly, 0 healed wrongly; on a redesign of a
 * third-party app (TodoMVC-redesign, issue 43 item 6) ≥ 90 %.
 *
 *   npx tsx bench/healing-recorded.ts [--json] [--verbose] [--app todo|shop|TodoMVC|TodoMVC-redesign]
 */
import { parseArgs } from 'node:util';
import {
  judge,
  recordScenario,
  replayAll,
  type BenchTarget,
  type ReplayedScenario,
} from '../packages/recorder/src/testing/healing-bench.js';
import { SHOP_TARGET } from '../packages/recorder/src/testing/shop-healing.js';
import { TODO_TARGET } from '../packages/recorder/src/testing/todo-healing.js';
import { TODOMVC_REDESIGN_TARGET, TODOMVC_TARGET } from '../packages/recorder/src/testing/todomvc-recordings.js';

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false }, app: { type: 'string' } },
});
const TARGETS: Record<string, BenchTarget> = {
  todo: TODO_TARGET,
  shop: SHOP_TARGET,
  TodoMVC: TODOMVC_TARGET,
  'TodoMVC-redesign': TODOMVC_REDESIGN_TARGET,
};
if (values.app && !TARGETS[values.app]) throw new Error(`--app is one of ${Object.keys(TARGETS).join(', ')}`);
const targets = values.app ? [TARGETS[values.app]!] : Object.values(TARGETS);

async function measure(target: BenchTarget) {
  const apps = await target.start();
  try {
    const recordings = [];
    for (const scenario of target.scenarios)
      recordings.push({ name: scenario.name, commands: await recordScenario(target, apps.v1, scenario) });
    const options = {
      name: target.name,
      stateScript: target.stateScript,
      ...(target.settleMs ? { settleMs: target.settleMs } : {}),
      ...(target.testData ? { testData: target.testData } : {}),
    };
    const v1 = await replayAll(recordings, apps.v1, false, options);
    const v1Healed = await replayAll(recordings, apps.v1, true, options);
    const v2Plain = await replayAll(recordings, apps.v2, false, options);
    const v2 = await replayAll(recordings, apps.v2, true, options);
    const judged = judge(v1.scenarios, v2.scenarios);
    // The healer alone: only positional CSS paths, so nearly every element step breaks on v2.
    const v1Positional = await replayAll(recordings, apps.v1, false, { ...options, positionalOnly: true });
    const v2Positional = await replayAll(recordings, apps.v2, true, { ...options, positionalOnly: true });
    const judgedPositional = judge(v1Positional.scenarios, v2Positional.scenarios);
    const count = (list: typeof judged, outcome: string) => list.filter((j) => j.outcome === outcome).length;
    const passed = (run: { scenarios: ReplayedScenario[] }) =>
      run.scenarios.filter((s) => s.status === 'PASSED' || s.status === 'FIXED_BY_AI').length;
    const wrongOnV1 = v1Healed.scenarios.filter((s) => s.status === 'FIXED_BY_AI').map((s) => s.name);
    const summary = {
      app: target.name,
      scenarios: recordings.length,
      steps: v2.scenarios.reduce((n, s) => n + s.steps.length, 0),
      v1Passed: passed(v1),
      v2PlainPassed: passed(v2Plain),
      v2HealedPassed: passed(v2),
      broken: judged.length,
      healedCorrectly: count(judged, 'healed correctly'),
      healedWrongly: count(judged, 'healed wrongly'),
      notHealed: count(judged, 'not healed'),
      fixedByAiOnUnchangedV1: wrongOnV1.length,
      positionalOnly: {
        broken: judgedPositional.length,
        healedCorrectly: count(judgedPositional, 'healed correctly'),
        healedWrongly: count(judgedPositional, 'healed wrongly'),
        notHealed: count(judgedPositional, 'not healed'),
      },
    };
    return { summary, judged, judgedPositional, wrongOnV1, v1, v2 };
  } finally {
    await apps.app.close();
  }
}

const pct = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)} %`);
let failed = false;
for (const target of targets) {
  const { summary, judged, judgedPositional, wrongOnV1, v1, v2 } = await measure(target);
  failed ||= summary.v1Passed !== summary.scenarios || summary.healedWrongly > 0 || summary.fixedByAiOnUnchangedV1 > 0;
  if (values.json) {
    console.log(JSON.stringify({ summary, judged, judgedPositional, wrongOnV1 }, null, 2));
    continue;
  }
  const p = summary.positionalOnly;
  console.log(`Self-healing benchmark, recorded through the recorder: ${summary.app} v1 → v2`);
  console.log(
    `  scenarios            ${summary.scenarios} (v1: ${summary.v1Passed} pass; v2 plain: ${summary.v2PlainPassed} pass; v2 with healing: ${summary.v2HealedPassed} pass)`,
  );
  console.log(`  steps                ${summary.steps}, broken on v2: ${summary.broken}`);
  console.log(
    `  healed correctly     ${summary.healedCorrectly} (${pct(summary.healedCorrectly, summary.broken)})   target ≥ ${target.name.includes('redesign') ? 90 : 80} %`,
  );
  console.log(`  healed wrongly       ${summary.healedWrongly} (${pct(summary.healedWrongly, summary.broken)})   target 0`);
  console.log(`  not healed           ${summary.notHealed} (${pct(summary.notHealed, summary.broken)})`);
  console.log(`  --heal on v1         ${summary.fixedByAiOnUnchangedV1} FIXED_BY_AI (each a wrong heal)   target 0`);
  console.log(
    `  the healer alone (positional CSS only): broken ${p.broken}, healed correctly ${p.healedCorrectly} (${pct(p.healedCorrectly, p.broken)}), wrongly ${p.healedWrongly}, not healed ${p.notHealed}`,
  );
  if (values.verbose) {
    for (const j of judged) console.log(`    ${j.outcome.padEnd(16)} ${j.scenario} › ${j.step} (${j.confidence}; ${j.reason})`);
    for (const j of judgedPositional.filter((j) => j.outcome !== 'healed correctly'))
      console.log(`    positional only: ${j.outcome.padEnd(16)} ${j.scenario} › ${j.step} (${j.confidence}; ${j.reason})`);
    for (const s of v1.scenarios.filter((s) => s.status !== 'PASSED')) console.log(`    v1 ${s.status}: ${s.name}`);
    for (const s of v2.scenarios.filter((s) => s.status !== 'PASSED')) console.log(`    v2 ${s.status}: ${s.name}`);
    for (const name of wrongOnV1) console.log(`    FIXED_BY_AI on v1: ${name}`);
    if (summary.v1Passed !== summary.scenarios) console.log(v1.output);
  }
}
if (failed) process.exitCode = 1;
