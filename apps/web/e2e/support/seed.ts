import type { ApiClient } from '@rehearse/api-client';
import { workspaceCalls } from '@rehearse/contract';

/** A step definition file with one used and three unused steps, plus the scenario that uses one. */
export const STEP_FILE = `import { Given, When, Then } from '@cucumber/cucumber';

When('I click {string}', async function (name) {
  await this.context.web.click(name);
});

Then(/^the basket holds (\\d+) items?$/, async function (count) {
  return count;
});

Given('an unused step with a {string}', async function () {});

When('I wave at the cashier', async function () {});
`;

export const OTHER_STEP_FILE = `import { Given } from '@cucumber/cucumber';

Given('a forgotten helper', async function () {});
`;

/** Seeds a scenario and two step files so the project has unused step definitions. */
export async function seedUnusedSteps(api: ApiClient, projectId: string): Promise<void> {
  await api.call(workspaceCalls.pushScenario, {
    body: { projectId, name: 'checkout', data: 'Scenario: Click it\n  When I click "Add Trail Backpack to cart"\n' },
  });
  await api.call(workspaceCalls.uploadMjs, {
    body: {
      projectId,
      files: [
        { name: 'shop.mjs', content: STEP_FILE },
        { name: 'helpers.mjs', content: OTHER_STEP_FILE },
      ],
    },
  });
}
