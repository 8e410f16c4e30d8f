import { describe, expect, it } from 'vitest';
import { BUILT_IN_STEPS } from '@rehearse/contract';
import { readableStep, replaceStepOnLine, stepKeywords, stepSnippet, stepTextStart } from './step-help';

describe('step lines in any Gherkin dialect', () => {
  it("finds where a step's text begins after English keywords, and nothing on other lines", () => {
    const english = stepKeywords('Feature: Shop\n  Scenario: Buy\n    Given I open "/"\n');
    expect(stepTextStart('    Given I open "/"', english)).toBe(10);
    expect(stepTextStart('    * I open "/"', english)).toBe(6);
    expect(stepTextStart('  Scenario: Buy', english)).toBe(-1);
    expect(stepTextStart('    Givenness is not a keyword', english)).toBe(-1);
  });

  it("reads the dialect from the text's # language header: French, with the longest keyword first, and Chinese without a space", () => {
    const french = stepKeywords("# language: fr\nFonctionnalité: Panier\n  Scénario: Payer\n    Etant donné qu'il pleut\n");
    expect(stepTextStart("    Etant donné qu'il pleut", french)).toBe(19);
    expect(stepTextStart('    Soit un panier', french)).toBe(9);
    expect(stepTextStart('    Given a cart', french)).toBe(-1);
    const chinese = stepKeywords('# language: zh-CN\n功能: 购物车\n');
    expect(stepTextStart('    假如我有一个购物车', chinese)).toBe(6);
  });

  it('replaces the step text at the column the server parsed, keeping indentation and keyword', () => {
    const text = "# language: fr\nFonctionnalité: Panier\n  Scénario: Payer\n    Etant donné qu'il pleut\n";
    expect(replaceStepOnLine(text, { line: 4, column: 20 }, 'il neige')).toBe(
      "# language: fr\nFonctionnalité: Panier\n  Scénario: Payer\n    Etant donné qu'il neige\n",
    );
    expect(replaceStepOnLine(text, { line: 9, column: 1 }, 'x')).toBe(text);
    expect(replaceStepOnLine(text, { line: 4, column: 99 }, 'x')).toBe(text);
  });
});

describe('steps as a person reads and types them', () => {
  it('writes the storage word unquoted and keeps each later parameter its own name', () => {
    const setStorage = BUILT_IN_STEPS.find((step) => step.id === 'setStorage')!;
    const names = setStorage.parameters.map((parameter) => parameter.name);
    expect(readableStep(setStorage.pattern, names)).toBe('I set the local storage item "key" to "value"');
    expect(stepSnippet(setStorage.pattern, names)).toBe('I set the ${storage} storage item "${key}" to "${value}"');
  });
});
