import { readInjectScript } from './inject/scripts.js';

/** A test-data row as the page may know it: the value only as a SHA-256 digest. */
export interface TestDataDigest {
  key: string;
  sha256: string;
  secret: boolean;
}

export interface CaptureConfig {
  /** The environment's base URL; recorded paths are relative to it. */
  baseUrl: string;
  testData?: TestDataDigest[];
}

let source: string | undefined;

/**
 * The capture script for `addInitScript`, with its configuration bound. The script is plain
 * JavaScript kept in its own file so no compiler helper ends up in a page.
 */
export function captureScript(config: CaptureConfig): string {
  source ??= readInjectScript('capture.js');
  return `${source.trim().replace(/;?\s*$/, '')}(${JSON.stringify(config)});`;
}
