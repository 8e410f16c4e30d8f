/**
 * Plain English offline (issue 44 "Must show"): the corpus of apps/server/src/ai/plain-english.corpus.ts
 * translated without a model and run in Chromium on its app; prints, per target, how many flows pass
 * as written, end in a question, or are wrong, with the time each target took; then the TodoMVC
 * flows run on the bug each should catch.
 *
 *   npx tsx bench/plain-english.ts
 */
import {
  corpusSummary,
  CORPUS_TARGETS,
  runCorpusMutants,
  runCorpusTarget,
  type Outcome,
} from '../apps/server/src/ai/testing/corpus-run.js';

const results = new Map<string, Outcome>();
const timings: string[] = [];
for (const target of CORPUS_TARGETS) {
  const started = performance.now();
  for (const [name, outcome] of await runCorpusTarget(target)) results.set(name, outcome);
  timings.push(`${target}: ${((performance.now() - started) / 1000).toFixed(1)} s to translate and run`);
}
const mutants = await runCorpusMutants(results);
console.log(['Plain English offline, rate per target:', ...corpusSummary(results), mutants.summary, ...timings].join('\n'));
