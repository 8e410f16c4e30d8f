import { beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('sonner', () => sonner);

const { snackbar, TOAST_DURATION_MS } = await import('./notify');

describe('snackbars and toasts (spec 01 §4)', () => {
  beforeEach(() => {
    sonner.toast.success.mockClear();
    sonner.toast.error.mockClear();
  });

  it('closes snackbars after 6 seconds', () => {
    snackbar.success('New branch created successfully');
    snackbar.error('Failed to delete step(s)');
    expect(sonner.toast.success).toHaveBeenCalledWith('New branch created successfully', { duration: 6000 });
    expect(sonner.toast.error).toHaveBeenCalledWith('Failed to delete step(s)', { duration: 6000 });
  });

  it('closes toasts after 3 seconds', () => {
    expect(TOAST_DURATION_MS).toBe(3000);
  });
});
