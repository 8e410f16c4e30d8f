import type { ScenarioSummary, StepInfo } from '@rehearse/contract';

/**
 * The text surgery the features page does on one scenario's Gherkin in the browser: the editor's
 * form of a scenario block, where a step sits in it, and the `# ...` comment above a step.
 * Pure functions over strings, so they are tested without a browser.
 */

/** The scenario text as the editor shows it: its lines without the file's indentation, one final newline. */
export function editorText(content: string): string {
  const lines = content.replace(/\s+$/, '').split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length));
  return `${lines.map((line) => line.slice(Number.isFinite(indent) ? indent : 0)).join('\n')}\n`;
}

/** The server's parser message "line 4: inconsistent cell count" read as `{ line: 4, reason }`; null for any other message. */
export function parserErrorOf(message: string): { line: number; reason: string } | null {
  const match = /^line (\d+): (.*)$/s.exec(message);
  return match ? { line: Number(match[1]), reason: match[2]! } : null;
}

/** Where a step is, as the steps list gives it: its text and keyword, and its line in the feature file. */
export type StepPlace = Pick<StepInfo, 'keyword' | 'stepName' | 'line'>;

/** Where the scenario is in the feature file: the line of its `Scenario:` keyword. */
export type ScenarioPlace = Pick<ScenarioSummary, 'line'>;

const stepLineText = (step: StepPlace) => `${step.keyword.trim()} ${step.stepName}`;

/**
 * The 0-based line of `step` in a scenario's text. The step's file line, counted from the
 * scenario's keyword line, says which line it is, so the second of two identical steps is found as
 * itself; when that line does not hold the step (text older than the step list), the first line
 * with the same keyword and text. -1 when the text has no such step (a Background step).
 */
export function stepLineIndex(text: string, step: StepPlace, scenario: ScenarioPlace): number {
  const lines = text.split('\n');
  const wanted = stepLineText(step);
  // The block opens with the comments and tags above the scenario; its keyword line is the first other line.
  const keywordAt = lines.findIndex((line) => {
    const trimmed = line.trim();
    return trimmed !== '' && !trimmed.startsWith('#') && !trimmed.startsWith('@');
  });
  const byLine = keywordAt < 0 || step.line < scenario.line ? -1 : keywordAt + (step.line - scenario.line);
  if (byLine >= 0 && lines[byLine]?.trim() === wanted) return byLine;
  return lines.findIndex((line) => line.trim() === wanted);
}

/** The comment right above a step (`# ...`, without the `#`), or ''. */
export function commentAbove(text: string, step: StepPlace, scenario: ScenarioPlace): string {
  const lines = text.split('\n');
  const at = stepLineIndex(text, step, scenario);
  const above = at > 0 ? lines[at - 1]!.trim() : '';
  return above.startsWith('#') ? above.slice(1).trim() : '';
}

/**
 * The scenario text with `comment` as the `# ...` line right above the step, at the step's
 * indentation, replacing a comment already there; a comment of several lines becomes one. The text
 * unchanged when the step is not in it.
 */
export function withCommentAbove(text: string, step: StepPlace, scenario: ScenarioPlace, comment: string): string {
  const lines = text.split('\n');
  const at = stepLineIndex(text, step, scenario);
  if (at < 0) return text;
  const indent = /^\s*/.exec(lines[at]!)![0];
  const line = `${indent}# ${comment.trim().replace(/\s*\n\s*/g, ' ')}`;
  if (at > 0 && lines[at - 1]!.trim().startsWith('#')) lines[at - 1] = line;
  else lines.splice(at, 0, line);
  return lines.join('\n');
}
