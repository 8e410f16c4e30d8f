import { readFileSync } from 'node:fs';

/**
 * The text of one of the plain-JavaScript scripts injected into recorded pages. They sit next to
 * this module in the source (src/inject/) and in the built runner package (its dist/, where the
 * build copies them beside the bundle), so one relative URL finds them in both.
 */
export function readInjectScript(name: 'capture.js' | 'panel.js'): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
}
