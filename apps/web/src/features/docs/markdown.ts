/**
 * A small Markdown reader for the documentation the product serves (the repository's own docs):
 * headings, paragraphs, lists (nested by indentation), fenced code, tables, quotes, rules, and
 * inline code, bold, italic and links. It answers a tree of plain values; the renderer turns them
 * into React elements, so no HTML from a file ever reaches the page (a `<tag>` is text).
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export interface ListItem {
  content: Inline[];
  children: Block[];
}

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; id: string; content: Inline[]; text: string }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'code'; language: string; text: string }
  | { kind: 'list'; ordered: boolean; items: ListItem[] }
  | { kind: 'table'; head: Inline[][]; rows: Inline[][][] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'rule' };

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingId(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

const FENCE = /^(\s*)(```|~~~)\s*([\w+-]*)\s*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** Splits a table row on its unescaped pipes. */
function cells(line: string): string[] {
  const trimmed = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  const out: string[] = [];
  let current = '';
  let inCode = false;
  for (let i = 0; i < trimmed.length; i += 1) {
    const char = trimmed[i]!;
    if (char === '\\' && trimmed[i + 1] === '|') {
      current += '|';
      i += 1;
    } else if (char === '`') {
      inCode = !inCode;
      current += char;
    } else if (char === '|' && !inCode) {
      out.push(current.trim());
      current = '';
    } else current += char;
  }
  out.push(current.trim());
  return out;
}

/** Reads a Markdown document into blocks. */
export function parseMarkdown(source: string): Block[] {
  return parseLines(source.replace(/\r\n?/g, '\n').split('\n'));
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].replace(/\t/g, '    ').length;
}

function parseLines(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  const blank = (line: string | undefined) => line === undefined || line.trim() === '';
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent, marker, language] = fence;
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trim().startsWith(marker!)) {
        body.push(lines[i]!.startsWith(indent!) ? lines[i]!.slice(indent!.length) : lines[i]!.trimStart());
        i += 1;
      }
      i += 1;
      blocks.push({ kind: 'code', language: language ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const text = heading[2]!;
      blocks.push({
        kind: 'heading',
        level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6,
        id: headingId(plainText(parseInline(text))),
        content: parseInline(text),
        text: plainText(parseInline(text)),
      });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i += 1;
      continue;
    }
    if (line.trimStart().startsWith('|') && TABLE_DIVIDER.test(lines[i + 1] ?? '')) {
      const head = cells(line).map(parseInline);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && lines[i]!.trimStart().startsWith('|')) {
        rows.push(cells(lines[i]!).map(parseInline));
        i += 1;
      }
      blocks.push({ kind: 'table', head, rows });
      continue;
    }
    if (line.trimStart().startsWith('>')) {
      const quoted: string[] = [];
      while (i < lines.length && lines[i]!.trimStart().startsWith('>')) {
        quoted.push(lines[i]!.trimStart().replace(/^>\s?/, ''));
        i += 1;
      }
      blocks.push({ kind: 'quote', blocks: parseLines(quoted) });
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const base = indentOf(line);
      const ordered = /\d/.test(bullet[2]!);
      const items: ListItem[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const item = BULLET.exec(current);
        if (!item || indentOf(current) !== base || /\d/.test(item[2]!) !== ordered) break;
        const text = [item[3]!];
        const nested: string[] = [];
        i += 1;
        // The item goes on while lines are indented past its marker (text, or a list of its own).
        while (i < lines.length && !blank(lines[i]) && indentOf(lines[i]!) > base) {
          if (nested.length > 0 || BULLET.test(lines[i]!) || FENCE.test(lines[i]!)) nested.push(lines[i]!);
          else text.push(lines[i]!.trim());
          i += 1;
        }
        // A blank line inside an item continues it only when the next line is still indented past the marker.
        while (blank(lines[i]) && i + 1 < lines.length && !blank(lines[i + 1]) && indentOf(lines[i + 1]!) > base) {
          i += 1;
          while (i < lines.length && (blank(lines[i]) ? indentOf(lines[i + 1] ?? '') > base : indentOf(lines[i]!) > base)) {
            nested.push(lines[i]!);
            i += 1;
          }
        }
        const nestedIndent = Math.min(...nested.filter((l) => !blank(l)).map(indentOf));
        items.push({
          content: parseInline(text.join(' ')),
          children: nested.length > 0 ? parseLines(nested.map((l) => l.slice(Math.min(nestedIndent, indentOf(l))))) : [],
        });
        while (blank(lines[i]) && i + 1 < lines.length && BULLET.test(lines[i + 1]!) && indentOf(lines[i + 1]!) === base) i += 1;
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      !blank(lines[i]) &&
      !FENCE.test(lines[i]!) &&
      !HEADING.test(lines[i]!) &&
      !(paragraph.length > 0 && BULLET.test(lines[i]!)) &&
      !(lines[i]!.trimStart().startsWith('|') && TABLE_DIVIDER.test(lines[i + 1] ?? ''))
    ) {
      paragraph.push(lines[i]!.trim());
      i += 1;
    }
    blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
  }
  return blocks;
}

/** Reads inline Markdown: `code`, **bold**, *italic*, [links](href) and backslash escapes. */
export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (char === '\\' && i + 1 < source.length && /[\\`*_[\]()#+\-.!|<>{}]/.test(source[i + 1]!)) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (char === '`') {
      const ticks = /^`+/.exec(source.slice(i))![0];
      const end = source.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        flush();
        out.push({ kind: 'code', text: source.slice(i + ticks.length, end).replace(/^ (.*) $/, '$1') });
        i = end + ticks.length;
        continue;
      }
    }
    if (char === '*' && source[i + 1] === '*') {
      const end = source.indexOf('**', i + 2);
      if (end > i + 2) {
        flush();
        out.push({ kind: 'strong', children: parseInline(source.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if (char === '*' && source[i + 1] !== ' ' && source[i + 1] !== '*') {
      const end = source.indexOf('*', i + 1);
      if (end > i + 1 && source[end - 1] !== ' ') {
        flush();
        out.push({ kind: 'em', children: parseInline(source.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (char === '[') {
      const link = /^\[((?:[^[\]\\]|\\.|`[^`]*`)*)\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)\)/.exec(source.slice(i));
      if (link) {
        flush();
        out.push({ kind: 'link', href: link[2]!, children: parseInline(link[1]!) });
        i += link[0].length;
        continue;
      }
    }
    text += char;
    i += 1;
  }
  flush();
  return out;
}

/** The words of inline content, without its marks. */
export function plainText(content: readonly Inline[]): string {
  return content.map((part) => (part.kind === 'text' || part.kind === 'code' ? part.text : plainText(part.children))).join('');
}
