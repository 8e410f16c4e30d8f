import type { Page } from 'playwright-core';

/** The 20 actions: a Gherkin step for the runner, the same action in raw Playwright. */
export const ACTIONS: Array<[string, (page: Page, base: string) => Promise<unknown>]> = [
  ['Given I open "/"', (page, base) => page.goto(base, { waitUntil: 'load' })],
  ['Then I should see "Trail Backpack"', (page) => page.getByText('Trail Backpack', { exact: true }).first().waitFor()],
  ['When I fill "Search products" with "mug"', (page) => page.getByRole('searchbox', { name: 'Search products' }).fill('mug')],
  ['And I press "Enter"', (page) => page.keyboard.press('Enter')],
  ['Then the URL should contain "q=mug"', (page) => page.waitForURL(/q=mug/)],
  ['And I should see "Enamel Camp Mug"', (page) => page.getByText('Enamel Camp Mug').first().waitFor()],
  ['When I click "Enamel Camp Mug"', (page) => page.getByRole('link', { name: 'Enamel Camp Mug', exact: true }).click()],
  ['Then the URL should contain "product.html"', (page) => page.waitForURL(/product\.html/)],
  ['When I select "Navy" from "Colour"', (page) => page.getByLabel('Colour').selectOption('Navy')],
  ['And I fill "Quantity" with "2"', (page) => page.getByLabel('Quantity').fill('2')],
  ['And I click "Add to cart"', (page) => page.getByRole('button', { name: 'Add to cart' }).click()],
  ['Then I should see "Added 2 × Enamel Camp Mug"', (page) => page.getByText('Added 2 × Enamel Camp Mug').first().waitFor()],
  ['Given I open "/"', (page, base) => page.goto(base, { waitUntil: 'load' })],
  ['When I fill "Search products" with "backpack"', (page) => page.getByRole('searchbox', { name: 'Search products' }).fill('backpack')],
  ['And I press "Enter"', (page) => page.keyboard.press('Enter')],
  ['Then I should see "Trail Backpack Mini"', (page) => page.getByText('Trail Backpack Mini').first().waitFor()],
  ['When I click "Trail Backpack Mini"', (page) => page.getByRole('link', { name: 'Trail Backpack Mini', exact: true }).click()],
  ['And I select "Slate" from "Colour"', (page) => page.getByLabel('Colour').selectOption('Slate')],
  ['And I click "Add to cart"', (page) => page.getByRole('button', { name: 'Add to cart' }).click()],
  ['Then I should see "Added 1 × Trail Backpack Mini"', (page) => page.getByText('Added 1 × Trail Backpack Mini').first().waitFor()],
];

export const FEATURE = `Feature: Bench\n  Scenario: Twenty steps\n${ACTIONS.map(([step]) => `    ${step}`).join('\n')}\n`;
