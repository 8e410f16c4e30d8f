import type { TestDataDigest } from '@rehearse/codegen';
import { visibleLinesOfPage } from '@rehearse/contract';
import { checkableBeside } from '@rehearse/runner';
import { readInjectScript } from './inject/scripts.js';

/** What the capture script is configured with; test data reaches the page only as SHA-256 digests. */
export interface CaptureConfig {
  /** The environment's base URL; recorded paths are relative to it. */
  baseUrl: string;
  testData?: TestDataDigest[];
}

/** The runner's "checkable beside this text" locator with the text left as `"\u0001"`, for the page to fill in. */
const CHECKABLE_BESIDE = (checkableBeside('\u0001') as { value: string }).value;

let source: string | undefined;

/**
 * The capture script for `addInitScript`, with its configuration bound. The script is plain
 * JavaScript kept in its own file so no compiler helper ends up in a page.
 */
export function captureScript(config: CaptureConfig): string {
  source ??= readInjectScript('capture.js');
  // The visible-lines function goes in as code (the contract's, shared with the runner), not through JSON.
  return `${source.trim().replace(/;?\s*$/, '')}(${JSON.stringify({ ...config, checkableBeside: CHECKABLE_BESIDE })}, ${visibleLinesOfPage.toString()});`;
}
