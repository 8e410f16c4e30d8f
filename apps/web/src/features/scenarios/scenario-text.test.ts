import { describe, expect, it } from 'vitest';
import { commentAbove, editorText, parserErrorOf, stepLineIndex, withCommentAbove } from './scenario-text';

// A scenario block as the server sends it: the file's indentation, its tags, `Scenario:` on file line 5.
const BLOCK = ['  @smoke', '  Scenario: Add twice', '    Given I open "/"', '    When I click "Add"', '    When I click "Add"'].join('\n');
const SCENARIO = { line: 5 };
const step = (keyword: string, stepName: string, line: number) => ({ keyword, stepName, line });

describe('editorText', () => {
  it("removes the file's common indentation and ends with one newline", () => {
    expect(editorText(`${BLOCK}\n\n`)).toBe(
      '@smoke\nScenario: Add twice\n  Given I open "/"\n  When I click "Add"\n  When I click "Add"\n',
    );
  });

  it('leaves an empty scenario empty but for the newline', () => {
    expect(editorText('   \n')).toBe('\n');
  });
});

describe('parserErrorOf', () => {
  it("reads the line and the reason of the parser's 'line N: reason'", () => {
    expect(parserErrorOf('line 4: inconsistent cell count')).toEqual({ line: 4, reason: 'inconsistent cell count' });
  });

  it('is null for any other message, which is then shown as it is', () => {
    expect(parserErrorOf('You do not have access to this project')).toBeNull();
  });
});

describe('stepLineIndex', () => {
  const text = editorText(BLOCK);

  it("finds the second of two identical steps by its file line, not the first one's", () => {
    expect(stepLineIndex(text, step('When ', 'I click "Add"', 8), SCENARIO)).toBe(4);
    expect(stepLineIndex(text, step('When ', 'I click "Add"', 7), SCENARIO)).toBe(3);
  });

  it('counts from the keyword line when comments and tags open the block', () => {
    const commented = `# the cart\n${text}`;
    expect(stepLineIndex(commented, step('Given ', 'I open "/"', 6), SCENARIO)).toBe(3);
  });

  it('falls back to the first line with the same keyword and text when the line numbers are stale', () => {
    expect(stepLineIndex(text, step('When ', 'I click "Add"', 30), SCENARIO)).toBe(3);
  });

  it('is -1 for a step the scenario text does not hold (a Background step above the scenario)', () => {
    expect(stepLineIndex(text, step('Given ', 'I am signed in', 3), SCENARIO)).toBe(-1);
  });
});

describe('comments above a step', () => {
  const text = editorText(BLOCK);
  const second = step('When ', 'I click "Add"', 8);

  it("puts the comment above the step at the step's indentation", () => {
    expect(withCommentAbove(text, second, SCENARIO, 'adds one more')).toBe(
      '@smoke\nScenario: Add twice\n  Given I open "/"\n  When I click "Add"\n  # adds one more\n  When I click "Add"\n',
    );
  });

  it('replaces the comment already above the step and reads it back without the #', () => {
    const once = withCommentAbove(text, second, SCENARIO, 'first');
    const withShiftedLines = { ...second, line: second.line + 1 };
    expect(commentAbove(once, withShiftedLines, SCENARIO)).toBe('first');
    expect(withCommentAbove(once, withShiftedLines, SCENARIO, 'second')).toBe(once.replace('# first', '# second'));
  });

  it('writes a comment of several lines as one line', () => {
    expect(withCommentAbove(text, second, SCENARIO, '  one\n  two  ')).toContain('  # one two\n');
  });

  it("is '' for a step without a comment above it", () => {
    expect(commentAbove(text, second, SCENARIO)).toBe('');
  });

  it('leaves the text unchanged for a step it does not hold', () => {
    expect(withCommentAbove(text, step('Given ', 'I am signed in', 3), SCENARIO, 'x')).toBe(text);
  });
});
