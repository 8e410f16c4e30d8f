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

/** The runner's API-test steps (spec 02 "apitest"); built in like the plain-English ones. */
export const API_STEP_PATTERNS = [
  'I set the request header {string} to {string}',
  'I send a {word} request to {string}',
  'I send a {word} request to {string} with body:',
  'I send the API request:',
  'the response status should be {int}',
  'the response header {string} should contain {string}',
  'the response JSON {string} should be {string}',
  'the response should contain {string}',
] as const;
