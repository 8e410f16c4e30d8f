import MagicString from 'magic-string';

/** A change to a source text, by offsets into the original text. */
export interface SourceEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies edits to a source text by their offsets in the original (magic-string keeps the
 * bookkeeping), so every character no edit touches stays byte for byte. Edits must not overlap;
 * an edit with `start === end` inserts.
 */
export function applySourceEdits(code: string, edits: readonly SourceEdit[]): string {
  const source = new MagicString(code);
  for (const edit of edits) {
    if (edit.start === edit.end) source.appendLeft(edit.start, edit.text);
    else if (edit.text === '') source.remove(edit.start, edit.end);
    else source.overwrite(edit.start, edit.end, edit.text);
  }
  return source.toString();
}
