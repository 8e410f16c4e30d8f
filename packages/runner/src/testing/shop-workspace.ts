import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_SHOP_PATH, demoShopPlugin } from '@rehearse/demo-shop';
import Fastify, { type FastifyInstance } from 'fastify';

/** The demo shop on a free port, as tests and the bench drive it. */
export async function startDemoShop(productDelayMs = 50): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = Fastify();
  await app.register(demoShopPlugin, { prefix: DEMO_SHOP_PATH, productDelayMs });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, baseUrl: `${address}${DEMO_SHOP_PATH}/` };
}

/** The deliberate console error the step definitions below make the page log. */
export const CONSOLE_ERROR = 'Rehearse test: a deliberate console error';

/** The failing scenario's expectation, and what the page shows instead. */
export const FAILING_TEXT = 'Welcome back, Dana';

/**
 * Five scenarios (one an outline with two examples, so six test cases): plain-English steps,
 * generated-style `context.web` steps whose first locator candidate is wrong, a Scenario Outline,
 * API steps against the shop's API, and one that fails on purpose (plus an undefined step).
 */
export const SHOP_FEATURE = `@shop
Feature: Trailhead shop

  Scenario: Search finds the mug
    Given I open "/"
    Then I should see "Trail Backpack"
    When I fill "Search products" with "mug"
    And I press "Enter"
    Then the URL should contain "q=mug"
    And I should see "Enamel Camp Mug"
    And I should not see "Summit Rain Jacket"
    And the page logs an error

  Scenario: Add a backpack to the cart with recorded locators
    Given I open the product page of "trail-backpack"
    When I choose the colour "Slate"
    And I set the quantity to "2"
    And I add it to the cart
    Then the toast says "Added 2 × Trail Backpack (Slate) to your cart"
    And the quantity field holds "2"

  Scenario Outline: Search for <term>
    Given I open "/?q=<term>"
    Then I should see "<product>"

    Examples:
      | term     | product                |
      | backpack | Trail Backpack Mini    |
      | bottle   | Insulated Water Bottle |

  @api
  Scenario: Sign in through the API
    When I send a POST request to "api/login" with body:
      """json
      { "email": "{{email}}", "password": "{{password}}" }
      """
    Then the response status should be 200
    And the response header "content-type" should contain "application/json"
    And the response JSON "name" should be "Dana Demo"
    When I send the API request:
      """yaml
      method: GET
      url: api/products?q=mug
      expect:
        status: 200
        json:
          products[0].name: Enamel Camp Mug
          query: mug
      """

  Scenario: Sign in with a wrong password fails on purpose
    Given I open "login.html"
    When I fill "Email" with "{{email}}"
    And I fill "Password" with "not-the-password"
    And I click "Sign in"
    Then I should see "${FAILING_TEXT}"
    And the shop sends me a postcard
`;

/** Generated-style step definitions: element maps with ranked locator candidates, as the recorder writes them. */
export const SHOP_STEPS = `import { When, Then } from '@cucumber/cucumber';
import { context } from '@rehearse/runner';

const elements = {
  colour: { name: 'Colour', locators: [{ kind: 'testId', value: 'colour-select' }, { kind: 'label', value: 'Colour', exact: true }] },
  quantity: { name: 'Quantity', locators: [{ kind: 'css', value: '#qty' }, { kind: 'label', value: 'Quantity', exact: true }] },
  add_to_cart: {
    name: 'Add to cart',
    locators: [{ kind: 'css', value: 'button.buy-now' }, { kind: 'role', role: 'button', name: 'Add to cart', exact: true }],
  },
  toast: { name: 'Toast', locators: [{ kind: 'testId', value: 'toast' }] },
};

When('I open the product page of {string}', async function (id) {
  await context.web.navigate('product.html?id={{id}}', { id }, {}, this);
});
When('I choose the colour {string}', async function (colour) {
  await context.web.select(elements.colour, colour, {}, {}, this);
});
When('I set the quantity to {string}', async function (quantity) {
  await context.web.fill(elements.quantity, quantity, {}, {}, this);
});
When('I add it to the cart', async function () {
  await context.web.click(elements.add_to_cart, {}, {}, this);
});
Then('the toast says {string}', async function (text) {
  await context.web.verifyVisible(elements.toast, {}, {}, this);
  await context.web.verifyText(text, {}, {}, this);
});
Then('the quantity field holds {string}', async function (value) {
  await context.web.verifyValue(elements.quantity, value, {}, {}, this);
});
When('the page logs an error', async function () {
  await this.page.evaluate((text) => console.error(text), ${JSON.stringify(CONSOLE_ERROR)});
  await this.page.evaluate(() => console.warn('Rehearse test: a warning'));
});
`;

export interface WorkspaceOptions {
  baseUrl: string;
  /** Rows for --data (and REHEARSE_DATA). */
  data?: Array<{ key: string; value: string; DataType: 'string' | 'secret' | 'totp' }>;
  feature?: string;
  steps?: string;
  config?: Record<string, unknown>;
}

/** A workspace folder laid out like the platform's git workspace (DESIGN §4). */
export function makeWorkspace(options: WorkspaceOptions): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-ws-'));
  mkdirSync(path.join(dir, 'features', 'step_definitions'), { recursive: true });
  mkdirSync(path.join(dir, 'environments'));
  writeFileSync(path.join(dir, 'environments', 'default.json'), JSON.stringify({ name: 'default', baseUrl: options.baseUrl }));
  writeFileSync(path.join(dir, 'features', 'shop.feature'), options.feature ?? SHOP_FEATURE);
  writeFileSync(path.join(dir, 'features', 'step_definitions', 'shop.mjs'), options.steps ?? SHOP_STEPS);
  writeFileSync(
    path.join(dir, 'rehearse.config.json'),
    JSON.stringify({ screenshots: 'every-command', commandTimeoutMs: 3_000, viewport: { width: 1024, height: 768 }, ...options.config }),
  );
  if (options.data) writeFileSync(path.join(dir, 'test-data.json'), JSON.stringify(options.data));
  return dir;
}
