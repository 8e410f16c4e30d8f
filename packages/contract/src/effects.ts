import { z } from 'zod';

/**
 * What a recorded step visibly did: the lines of page text that appeared and disappeared between
 * it and the next step. A healed step is held to it on replay (the step's intent), so a heal onto
 * the wrong element (a new-todo box for an edit box) fails instead of passing.
 */
export const RecordedEffect = z.object({
  appeared: z.array(z.string().max(200)).max(20),
  disappeared: z.array(z.string().max(200)).max(20),
  /**
   * Lines with a number that the step left as they were (a counter, a total): a replay that
   * changes one did something else (an edit that adds a todo changes "1 item left").
   */
  kept: z.array(z.string().max(200)).max(20).optional(),
});
export type RecordedEffect = z.infer<typeof RecordedEffect>;

/**
 * A feature's recorded effects (`effectsFileOf`): scenario name → step text → the effect of each
 * time the step occurs in the scenario (null where nothing was recorded).
 */
export const StepEffectsFile = z.record(z.string(), z.record(z.string(), z.array(RecordedEffect.nullable())));
export type StepEffectsFile = z.infer<typeof StepEffectsFile>;

/** Where a feature's recorded effects live: `features/a/b.feature` → `features/step_definitions/effects/a/b.json`. */
export function effectsFileOf(featurePath: string): string {
  const relative = featurePath
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)?features\//, '')
    .replace(/\.feature$/, '');
  return `features/step_definitions/effects/${relative}.json`;
}

/** How many changed lines an effect keeps each way: enough to say what a step did, small in git. */
const EFFECT_LINES = 20;

/** What changed between two snapshots of a page's visible lines. */
export function effectBetween(before: readonly string[], after: readonly string[]): RecordedEffect {
  const was = new Set(before);
  const now = new Set(after);
  const kept = [...was].filter((line) => now.has(line) && /\p{N}/u.test(line)).slice(0, EFFECT_LINES);
  return {
    appeared: [...now].filter((line) => !was.has(line)).slice(0, EFFECT_LINES),
    disappeared: [...was].filter((line) => !now.has(line)).slice(0, EFFECT_LINES),
    ...(kept.length > 0 ? { kept } : {}),
  };
}

/**
 * Whether a replayed step did what it did when recorded, judged on the page's visible lines before
 * and after it. Undefined when it did; otherwise why not, in a sentence. More than half of the
 * recorded changes must happen again (a line the recording saw go only counts when it was there
 * this time too), and no line the recording saw stay (a counter) may change. Lines a redesign
 * reworded are simply not there to judge, so a right element on a new design still passes.
 */
export function effectMismatch(expected: RecordedEffect, before: readonly string[], after: readonly string[]): string | undefined {
  const now = new Set(after);
  const was = new Set(before);
  // Most of what the recording saw change must change again; one line of noise (a tooltip the
  // pointer left behind) does not refute a step that did the rest.
  const missing = expected.appeared.filter((line) => !now.has(line));
  const stayed = expected.disappeared.filter((line) => was.has(line) && now.has(line));
  const considered = expected.appeared.length + expected.disappeared.filter((line) => was.has(line)).length;
  if ((missing.length + stayed.length) * 2 > considered) {
    return missing.length > 0 ? `“${missing[0]}” should have appeared` : `“${stayed[0]}” should have gone`;
  }
  const changed = (expected.kept ?? []).find((line) => was.has(line) && !now.has(line));
  if (changed) return `“${changed}” went, which it did not when recorded`;
  return undefined;
}

/**
 * The page's visible text as lines, each once: what effects are made of. It runs inside the page
 * (the recorder's capture script and the runner evaluate it), so it is one self-contained arrow
 * function with no names a compiler could wrap.
 */
export const visibleLinesOfPage = (): string[] => {
  // The contract compiles without DOM types: reach the page's document through globalThis.
  const text = (globalThis as unknown as { document?: { body?: { innerText?: string } | null } }).document?.body?.innerText ?? '';
  const lines = text.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
  // A line with no letter or digit (a row's "×", an arrow, a separator) says nothing, and often
  // only shows while the pointer is over it.
  return [...new Set(lines.filter((line) => line.length <= 200 && /[\p{L}\p{N}]/u.test(line)))].slice(0, 2000);
};
