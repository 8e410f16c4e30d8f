/**
 * Scenario and feature name rules of spec 02 §5, as pure functions the server checks with before it
 * edits a file (the web app can run the same ones as the user types).
 *
 * Shared decisions:
 * - Length is counted in code points (an emoji is one character), limit 80 (spec 02 §9).
 * - "Letters" and "digits" are those of any script (`\p{L}`, `\p{M}` for combining accents, `\p{Nd}`),
 *   because features are written in the team's language (`# language: fr`); "space" is U+0020 only.
 * - Names are compared without regard to case or Unicode composition: two features whose names differ
 *   only in case would be two files that collide on a case-insensitive file system (macOS, Windows
 *   clones of the workspace), and a runner selects a scenario by name.
 * - "Same as the old name" is an exact comparison, so changing only the case of a name is allowed.
 */
import { Limits } from './constants.js';
import { charactersNotAllowed, GherkinMessages, type CharactersNotAllowedMessage } from './gherkin-messages.js';

export type GherkinNameMessage = (typeof GherkinMessages)[keyof typeof GherkinMessages] | CharactersNotAllowedMessage;

export interface NameCheck {
  /** The name to write: trimmed (a trailing space is never kept; the parser would drop it). */
  name: string;
  /** The first broken rule's message, or null. */
  error: GherkinNameMessage | null;
}

const FEATURE_FILE_EXTENSION = '.feature';
const SCENARIO_NAME_CHARACTER = /^[\p{L}\p{M}\p{Nd} _\-()]$/u;
const FEATURE_NAME_CHARACTER = /^[\p{L}\p{M}\p{Nd} _-]$/u;

/**
 * Checks a new name for a scenario, rules in the spec's order (blank first, since an empty name breaks
 * nothing else): not blank; not starting with a space; only letters, digits, space, `_`, `-`, `(`,
 * `)`; different from `oldName`; no other scenario of the feature with that name; at most 80 characters.
 * `existingNames` are the names of the feature's scenarios; one occurrence of `oldName` is left out, so
 * a duplicate that already exists in the file is still reported.
 */
export function validateScenarioRename(newName: string, oldName: string, existingNames: readonly string[]): NameCheck {
  const name = newName.trimEnd();
  if (name.trim() === '') return { name, error: GherkinMessages.scenarioNameEmpty };
  if (/^\s/u.test(name)) return { name, error: GherkinMessages.scenarioNameLeadingSpace };
  const forbidden = forbiddenCharacters(name, SCENARIO_NAME_CHARACTER);
  if (forbidden.length > 0) return { name, error: charactersNotAllowed(forbidden) };
  if (name === oldName.trim()) return { name, error: GherkinMessages.sameAsOldName };
  if (takenBy(name, withoutOne(existingNames, oldName))) return { name, error: GherkinMessages.scenarioNameTaken };
  if (length(name) > Limits.scenarioNameMax) return { name, error: GherkinMessages.scenarioNameTooLong };
  return { name, error: null };
}

/**
 * Checks a new name for a feature: not blank; only letters, digits, space, `_`, `-`; different from
 * `oldName`; not the name of another feature; at most 80 characters. Names may be given as display
 * names or file names (`checkout.feature`); the extension is ignored.
 */
export function validateFeatureRename(newName: string, oldName: string, existingNames: readonly string[]): NameCheck {
  const name = newName.trim();
  if (name === '') return { name, error: GherkinMessages.featureNameEmpty };
  const forbidden = forbiddenCharacters(name, FEATURE_NAME_CHARACTER);
  if (forbidden.length > 0) return { name, error: charactersNotAllowed(forbidden) };
  const old = featureDisplayName(oldName.trim());
  if (name === old) return { name, error: GherkinMessages.sameAsOldName };
  if (takenBy(name, withoutOne(existingNames.map(featureDisplayName), old))) return { name, error: GherkinMessages.featureNameTaken };
  if (length(name) > Limits.featureNameMax) return { name, error: GherkinMessages.featureNameTooLong };
  return { name, error: null };
}

/**
 * Checks the name of a feature about to be created: not blank; only letters, digits, space, `_`, `-`;
 * at most 80 characters; no existing feature with that name in any case.
 */
export function validateNewFeatureName(newName: string, existingNames: readonly string[]): NameCheck {
  const name = newName.trim();
  if (name === '') return { name, error: GherkinMessages.featureNameEmpty };
  const forbidden = forbiddenCharacters(name, FEATURE_NAME_CHARACTER);
  if (forbidden.length > 0) return { name, error: charactersNotAllowed(forbidden) };
  if (length(name) > Limits.featureNameMax) return { name, error: GherkinMessages.featureNameTooLong };
  if (takenBy(name, existingNames.map(featureDisplayName))) return { name, error: GherkinMessages.featureAlreadyExists };
  return { name, error: null };
}

/**
 * A scenario name no other scenario of the feature has: empty becomes 'Untitled'; on a clash the first
 * free 'Name (1)', 'Name (2)', ... (a clashing 'Name (1)' counts on from 'Name', never 'Name (1) (1)').
 * The base is shortened when the suffix would pass 80 characters.
 */
export function uniqueScenarioName(name: string, existingNames: readonly string[]): string {
  return uniqueName(name.trim(), existingNames, Limits.scenarioNameMax);
}

/**
 * A feature file name (`Name.feature`) no existing file has, by the same rule as `uniqueScenarioName`;
 * `name` and `existingFileNames` may come with or without `.feature`. The suffix keeps the spec's
 * '(n)' form although parentheses are not allowed in names users type for features.
 */
export function uniqueFeatureFileName(name: string, existingFileNames: readonly string[]): string {
  const base = featureDisplayName(name.trim());
  return uniqueName(base, existingFileNames.map(featureDisplayName), Limits.featureNameMax) + FEATURE_FILE_EXTENSION;
}

/** The name shown for a feature file: the file name without its `.feature` extension (spec 02 §3). */
export function featureDisplayName(fileName: string): string {
  return fileName.toLowerCase().endsWith(FEATURE_FILE_EXTENSION) ? fileName.slice(0, -FEATURE_FILE_EXTENSION.length) : fileName;
}

function uniqueName(wanted: string, existing: readonly string[], max: number): string {
  const taken = new Set(existing.map(nameKey));
  const name = wanted === '' ? GherkinMessages.untitled : wanted;
  if (!taken.has(nameKey(name))) return name;
  const base = name.replace(/ \(\d+\)$/u, '');
  for (let n = 1; ; n++) {
    const suffix = ` (${n})`;
    const candidate =
      Array.from(base)
        .slice(0, max - suffix.length)
        .join('')
        .trimEnd() + suffix;
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}

function nameKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase();
}

function takenBy(name: string, others: readonly string[]): boolean {
  const key = nameKey(name);
  return others.some((other) => nameKey(other) === key);
}

function withoutOne(names: readonly string[], name: string): string[] {
  const rest = [...names];
  const at = rest.findIndex((n) => n.trim() === name.trim());
  if (at >= 0) rest.splice(at, 1);
  return rest;
}

function forbiddenCharacters(name: string, allowed: RegExp): string[] {
  return [...new Set(Array.from(name).filter((c) => !allowed.test(c)))];
}

function length(name: string): number {
  return Array.from(name).length;
}
