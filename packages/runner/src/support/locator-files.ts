import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Element } from './elements.js';

/** Where generated locator files live in a workspace, next to the step definitions that use them. */
export const LOCATORS_DIR = 'features/step_definitions/locators';

/**
 * The elements of one locator file (`{ "<key>": { name, locators, fingerprint? } }`), each stamped
 * with its source so self-healing can propose new candidates for that very entry. Generated step
 * files call it as `const elements = locatorsFile(import.meta.url, 'locators/checkout.json')`.
 *
 * Locators are JSON rather than code so a reviewed fix is a small data diff, and so tools can
 * rewrite them without parsing JavaScript.
 */
export function locatorsFile(stepFileUrl: string, relativePath: string): Record<string, Element> {
  const absolute = path.resolve(path.dirname(fileURLToPath(stepFileUrl)), relativePath);
  const parsed = JSON.parse(readFileSync(absolute, 'utf8')) as Record<string, Omit<Element, 'source'>>;
  const file = workspaceRelative(absolute);
  const elements: Record<string, Element> = {};
  for (const [key, element] of Object.entries(parsed)) {
    elements[key] = { ...element, source: { file, key } };
  }
  return elements;
}

/** `…/features/step_definitions/locators/x.json` → `features/step_definitions/locators/x.json`. */
function workspaceRelative(absolute: string): string {
  const parts = absolute.split(path.sep);
  const features = parts.lastIndexOf('features');
  return features === -1 ? path.basename(absolute) : parts.slice(features).join('/');
}
