/**
 * Files every workspace gets (issue 18, no lock-in): a cucumber-js profile so plain `npx cucumber-js`
 * runs it with the installed runner, and a README saying how. New workspaces are created with them;
 * `rehearse pull` adds the profile to a pulled folder that has none.
 */
export const CUCUMBER_PROFILE_FILE = 'cucumber.mjs';

export const CUCUMBER_PROFILE = `// Lets plain cucumber-js run this workspace: npx cucumber-js (see README.md).
// The profile comes from the installed runner (@rehearse/runner): Rehearse's World, hooks, built-in
// steps and context.web, features/step_definitions/**/*.mjs, the report in rehearse-report/, and
// the settings \`rehearse run\` uses (REHEARSE_ENV, rehearse.config.json, data/data.json, REHEARSE_TOKEN).
//
// Profiles of your own go beside it, starting from Rehearse's so that plain cucumber-js loads its
// support code with them, for example:
//   export const smoke = { ...rehearse, tags: '@smoke' };
// then \`npx cucumber-js --profile smoke\` or \`npx rehearse run --profile smoke\`.
import rehearse from '@rehearse/runner/profile';

export default rehearse;
`;

/** The README of a new workspace. */
export function workspaceReadme(projectName: string): string {
  return `# ${projectName.replace(/[\r\n]+/g, ' ')}

End-to-end tests kept by Rehearse: Gherkin in \`features/\`, step definitions in
\`features/step_definitions/\`, element locators in \`features/step_definitions/locators/\`,
environments in \`environments/\`, test data in \`data/data.json\`, run settings in
\`rehearse.config.json\`.

## Run with rehearse

Install the runner from your Rehearse server (it is the version that server speaks), then pull and
run with an access token of the project (Settings > Access tokens):

\`\`\`sh
npm install --no-save <server>/downloads/rehearse-runner-latest.tgz
export REHEARSE_TOKEN=<access token>
npx rehearse pull --server <server> --dir workspace && cd workspace
npx rehearse run --env environments/<environment>.json        # add --token to upload the report
\`\`\`

## Run with plain cucumber-js

Nothing here is tied to the rehearse command: with \`@rehearse/runner\` installed (above),
\`cucumber.mjs\` loads Rehearse's support code and these step definitions into upstream cucumber-js.

\`\`\`sh
REHEARSE_ENV=environments/<environment>.json npx cucumber-js
\`\`\`

It reads what \`rehearse run\` reads: \`rehearse.config.json\`, \`data/data.json\`, \`REHEARSE_DATA\` (a
test data file), and with \`REHEARSE_TOKEN\` the project's test data from the server
(\`REHEARSE_SERVER\` and \`REHEARSE_PROJECT\`, or the folder \`rehearse pull\` made). The report
(report.json, junit.xml, cucumber.json, screenshots) goes to \`rehearse-report/\`. Browsers:
\`npx playwright-core install chromium\`, or set \`CHROMIUM_PATH\`.

Profiles of your own go in \`cucumber.mjs\` beside the default one (its comment shows how); pick
one with \`--profile\`, under plain cucumber-js or \`rehearse run\`.
`;
}
