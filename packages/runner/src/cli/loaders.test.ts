import { afterEach, describe, expect, it } from 'vitest';
import { withoutSourceMaps } from './loaders.js';

describe('withoutSourceMaps', () => {
  const before = process.sourceMapsEnabled;
  afterEach(() => process.setSourceMapsEnabled(before));

  it('turns source-mapped stacks off while a run works and back on after it, even when it fails', async () => {
    process.setSourceMapsEnabled(true);
    const seen = await withoutSourceMaps(async () => process.sourceMapsEnabled);
    expect(seen).toBe(false);
    expect(process.sourceMapsEnabled).toBe(true);
    await expect(withoutSourceMaps(async () => Promise.reject(new Error('scenario crashed')))).rejects.toThrow('scenario crashed');
    expect(process.sourceMapsEnabled).toBe(true);
  });

  it('restores them only when the last of overlapping runs ends', async () => {
    process.setSourceMapsEnabled(true);
    let releaseFirst!: () => void;
    const first = withoutSourceMaps(() => new Promise<void>((resolve) => (releaseFirst = resolve)));
    const duringSecond = await withoutSourceMaps(async () => process.sourceMapsEnabled);
    expect(duringSecond).toBe(false);
    expect(process.sourceMapsEnabled).toBe(false);
    releaseFirst();
    await first;
    expect(process.sourceMapsEnabled).toBe(true);
  });

  it('leaves a process that was off as it was', async () => {
    process.setSourceMapsEnabled(false);
    await withoutSourceMaps(async () => undefined);
    expect(process.sourceMapsEnabled).toBe(false);
  });
});
