/**
 * Every user-facing message of the Gherkin module. Quoted spec wording (02 §5) is kept exactly; the
 * entries marked "ours" fill gaps the spec leaves (it names a rule but gives no message for it).
 * The lead moves these into the contract's catalogue later, so nothing here depends on the server.
 */
export const GherkinMessages = {
  // Scenario rename (spec 02 §5)
  /** Ours: the spec says "not blank" without a message. */
  scenarioNameEmpty: 'Scenario name cannot be empty.',
  /** Ours: the spec says "not starting with a space" without a message. */
  scenarioNameLeadingSpace: 'Scenario name cannot start with a space.',
  scenarioNameTooLong: 'Scenario name cannot exceed 80 characters.',
  scenarioNameTaken: 'Another scenario exists with the given name.',
  sameAsOldName: 'New name cannot be same as the old name.',
  /** Prefix of the forbidden-characters message; see `charactersNotAllowed`. */
  charactersNotAllowedPrefix: 'Following characters are not allowed: ',

  // Feature rename and new feature (spec 02 §5)
  /** Ours: an empty feature name would be the file `.feature`. */
  featureNameEmpty: 'Feature name cannot be empty.',
  featureNameTooLong: 'Feature name cannot be more than 80 characters.',
  /** Spec 02 §5: the rename dialog's rule, checked as the name is typed. */
  featureNameTaken: 'Another feature exists with the given name.',
  /**
   * Spec 02 §8, feature rename: the server refusing a rename onto a taken name (another member took
   * it after the dialog last checked). §5 and §8 name the same clash; each is used where its
   * section places it.
   */
  featureRenameClash: 'Feature with the same name already exists',
  featureAlreadyExists: 'A feature with this name already exists.',

  // Default names (spec 02 §5: "empty names become 'Untitled'")
  untitled: 'Untitled',

  // Scenario text sent by a client (ours)
  scenarioTextEmpty: 'The scenario text is empty.',
  scenarioTextNotOneScenario: 'The text must contain exactly one scenario.',
  scenarioTextHasBackground: 'A scenario cannot contain a Background.',
  scenarioTextHasRule: 'A scenario cannot contain a Rule.',
  scenarioTextBeforeKeyword: 'Only comments and tags can come before the scenario keyword.',

  // Edits (ours)
  noFeature: 'The file has no Feature.',
  noSuchScenario: 'Scenario not found.',
  nameNotOneLine: 'A name must fit on one line.',
  descriptionInvalid: 'The description cannot contain Gherkin keywords, tags or comments at the start of a line.',
  tagInvalid: 'A tag must be one word without spaces or a second @: ',
} as const;

export type CharactersNotAllowedMessage = `${(typeof GherkinMessages)['charactersNotAllowedPrefix']}${string}`;

/** 'Following characters are not allowed: ' followed by each offending character once, separated by spaces. */
export function charactersNotAllowed(characters: readonly string[]): CharactersNotAllowedMessage {
  return `${GherkinMessages.charactersNotAllowedPrefix}${characters.join(' ')}`;
}
