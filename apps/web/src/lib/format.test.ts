import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

describe('disk use as people read it', () => {
  it('counts bytes, then kilobytes, megabytes and gigabytes with one decimal', () => {
    expect([0, 512, 1023, 1024, 4300, 13 * 1024 * 1024, 1.5 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 B',
      '512 B',
      '1023 B',
      '1.0 KB',
      '4.2 KB',
      '13.0 MB',
      '1.5 GB',
    ]);
  });
});
