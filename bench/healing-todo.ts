/**
 * Self-healing bench on the todo app (issue 19 "Must show"): the scenarios of
 * packages/recorder/src/testing/todo-healing.ts are recorded through the recorder on version 1,
 * replayed on version 1 (plain, then with --heal: any FIXED_BY_AI there is a wrong heal) and on
 * version 2 with --heal. Each broken step is judged by the app's state after it.
 * Target: ≥ 80 % of broken steps healed correctly, 0 healed wrongly.
 *
 * It also measures the healer alone: the same recordings keeping only their positional CSS paths.
 *
 *   npx tsx bench/healing-todo.ts [--json] [--verbose]
 */
import { parseArgs } from 'node:util';
import { judge, recordScenario, replayAll, startTodoApps, TODO_SCENARIOS } from '../packages/recorder/src/testing/todo-healing.js';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } } });

const apps = await startTodoApps();
try {
  const recordings = [];
  for (const scenario of TODO_SCENARIOS) recordings.push({ name: scenario.name, commands: await recordScenario(apps.v1, scenario) });
  const v1 = await replayAll(recordings, apps.v1, false);
  const v1Healed = await replayAll(recordings, apps.v1, true);
  const v2Plain = await replayAll(recordings, apps.v2, false);
  const v2 = await replayAll(recordings, apps.v2, true);
  const judged = judge(v1.scenarios, v2.scenarios);
  // The healer alone: the same recordings with only their positional CSS paths, as a recorder that
  // knows nothing better writes them; nearly every element step breaks on version 2.
  const v1Positional = await replayAll(recordings, apps.v1, false, { positionalOnly: true });
  const v2Positional = await replayAll(recordings, apps.v2, true, { positionalOnly: true });
  const judgedPositional = judge(v1Positional.scenarios, v2Positional.scenarios);
  const countOf = (list: typeof judged, outcome: string) => list.filter((j) => j.outcome === outcome).length;
  const count = (outcome: string) => judged.filter((j) => j.outcome === outcome).length;
  const passed = (run: typeof v1) => run.scenarios.filter((s) => s.status === 'PASSED' || s.status === 'FIXED_BY_AI').length;
  const wrongOnV1 = v1Healed.scenarios.filter((s) => s.status === 'FIXED_BY_AI').map((s) => s.name);
  const summary = {
    scenarios: recordings.length,
    steps: v2.scenarios.reduce((n, s) => n + s.steps.length, 0),
    v1Passed: passed(v1),
    v2PlainPassed: passed(v2Plain),
    v2HealedPassed: passed(v2),
    broken: judged.length,
    healedCorrectly: count('healed correctly'),
    healedWrongly: count('healed wrongly'),
    notHealed: count('not healed'),
    fixedByAiOnUnchangedV1: wrongOnV1.length,
    positionalOnly: {
      broken: judgedPositional.length,
      healedCorrectly: countOf(judgedPositional, 'healed correctly'),
      healedWrongly: countOf(judgedPositional, 'healed wrongly'),
      notHealed: countOf(judgedPositional, 'not healed'),
    },
  };
  const pct = (n: number) => (summary.broken === 0 ? '—' : `${((100 * n) / summary.broken).toFixed(1)} %`);
  if (values.json) {
    console.log(JSON.stringify({ summary, judged, judgedPositional, wrongOnV1 }, null, 2));
  } else {
    console.log('Self-healing benchmark: todo app v1 → v2 (scenarios recorded through the recorder)');
    console.log(`  scenarios            ${summary.scenarios} (v1: ${summary.v1Passed} pass; v2 plain: ${summary.v2PlainPassed} pass; v2 with healing: ${summary.v2HealedPassed} pass)`);
    console.log(`  steps                ${summary.steps}, broken on v2: ${summary.broken}`);
    console.log(`  healed correctly     ${summary.healedCorrectly} (${pct(summary.healedCorrectly)})   target ≥ 80 %`);
    console.log(`  healed wrongly       ${summary.healedWrongly} (${pct(summary.healedWrongly)})   target 0`);
    console.log(`  not healed           ${summary.notHealed} (${pct(summary.notHealed)})`);
    console.log(`  --heal on v1         ${summary.fixedByAiOnUnchangedV1} FIXED_BY_AI (each a wrong heal)   target 0`);
    const p = summary.positionalOnly;
    const share = (n: number) => (p.broken === 0 ? '—' : `${((100 * n) / p.broken).toFixed(1)} %`);
    console.log(`  the healer alone (positional CSS only): broken ${p.broken}, healed correctly ${p.healedCorrectly} (${share(p.healedCorrectly)}), wrongly ${p.healedWrongly}, not healed ${p.notHealed}`);
    if (values.verbose) {
      for (const j of judged) console.log(`    ${j.outcome.padEnd(16)} ${j.scenario} › ${j.step} (${j.confidence}; ${j.reason})`);
      for (const j of judgedPositional.filter((j) => j.outcome !== 'healed correctly')) console.log(`    positional only: ${j.outcome.padEnd(16)} ${j.scenario} › ${j.step} (${j.confidence}; ${j.reason})`);
      for (const s of v1.scenarios.filter((s) => s.status !== 'PASSED')) console.log(`    v1 ${s.status}: ${s.name}`);
      for (const s of v2.scenarios.filter((s) => s.status !== "PASSED")) console.log(`    v2 ${s.status}: ${s.name}`);
      for (const name of wrongOnV1) console.log(`    FIXED_BY_AI on v1: ${name}`);
      if (summary.v1Passed !== summary.scenarios) console.log(v1.output);
    }
  }
  if (summary.v1Passed !== summary.scenarios || summary.healedWrongly > 0 || summary.fixedByAiOnUnchangedV1 > 0) process.exitCode = 1;
} finally {
  await apps.app.close();
}
