/**
 * The runner's built-in plain-English steps (cucumber expressions). A scenario step matching one
 * of these runs without generated code; the workspace reports it as implemented, source "user".
 */
export const BUILT_IN_STEP_PATTERNS = [
  'I open {string}',
  'I click {string}',
  'I fill {string} with {string}',
  'I select {string} from {string}',
  'I check {string}',
  'I press {string}',
  'I should see {string}',
  'I should not see {string}',
  'the URL should contain {string}',
  'I wait for {string}',
] as const;
