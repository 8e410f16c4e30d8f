/**
 * A feature file as lines that remember their own line ending, so an edit can rewrite some lines and
 * give every other byte back untouched. Numbering matches @cucumber/gherkin's: it splits on `\r?\n`
 * too, so line N here is the parser's line N (a lone `\r` stays inside its line, as for the parser).
 */

/** A line ending as found in the file; `''` only on a last line that has no newline after it. */
export type LineEnding = '\n' | '\r\n' | '';

export interface SourceLine {
  text: string;
  eol: LineEnding;
}

/** Splits text into lines; a newline at the very end does not start an extra empty line. */
export function splitLines(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  const newline = /\r?\n/g;
  let start = 0;
  for (let match = newline.exec(text); match; match = newline.exec(text)) {
    lines.push({ text: text.slice(start, match.index), eol: match[0] === '\n' ? '\n' : '\r\n' });
    start = match.index + match[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: '' });
  return lines;
}

/** The exact inverse of `splitLines`. */
export function joinLines(lines: readonly SourceLine[]): string {
  let text = '';
  for (const line of lines) text += line.text + line.eol;
  return text;
}

/**
 * The line ending new lines get: CRLF when the file mostly uses it, else LF (also for files with no
 * newline at all, the common case for new content).
 */
export function dominantEol(lines: readonly SourceLine[]): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (const line of lines) {
    if (line.eol === '\r\n') crlf++;
    else if (line.eol === '\n') lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Blank as the parser sees it: nothing but whitespace (its `\s`, so NBSP and a BOM count too). */
export function isBlank(text: string): boolean {
  return /^\s*$/.test(text);
}

/** Removes the indentation (spaces and tabs) that every non-blank row of a multi-line text shares. */
export function dedent(text: string): string {
  const rows = text.split('\n');
  const indentLength = (row: string) => /^[ \t]*/.exec(row)![0].length;
  const indents = rows.filter((row) => !isBlank(row)).map(indentLength);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return rows.map((row) => row.slice(Math.min(common, indentLength(row)))).join('\n');
}

/** The whitespace a line starts with. */
export function indentOf(text: string): string {
  return /^\s*/.exec(text)?.[0] ?? '';
}

/**
 * Replaces lines `from`..`to` (1-based, inclusive; `to = from - 1` inserts before `from`) with `texts`.
 * New lines take `eol`. Whether the file ends with a newline is kept: if the edit reaches the end, the
 * new last line gets the old last line's ending, and a line that stops being last gets `eol`.
 */
export function replaceLines(
  lines: readonly SourceLine[],
  from: number,
  to: number,
  texts: readonly string[],
  eol: '\n' | '\r\n',
): SourceLine[] {
  const lastEol = lines.at(-1)?.eol ?? eol;
  const next = [...lines.slice(0, from - 1), ...texts.map((text) => ({ text, eol })), ...lines.slice(to)];
  for (let i = 0; i < next.length - 1; i++) {
    const line = next[i]!;
    if (line.eol === '') next[i] = { text: line.text, eol };
  }
  const last = next.at(-1);
  if (last && to >= lines.length) next[next.length - 1] = { text: last.text, eol: lastEol };
  return next;
}
