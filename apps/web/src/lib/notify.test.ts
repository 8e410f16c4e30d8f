import { beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn() } }));
vi.mock('sonner', () => sonner);

const { saveNotice, snackbar, TOAST_DURATION_MS } = await import('./notify');

describe('snackbars and toasts (spec 01 §4, spec 02 §9)', () => {
  beforeEach(() => {
    sonner.toast.success.mockClear();
    sonner.toast.error.mockClear();
    sonner.toast.warning.mockClear();
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

  it('closes a save’s notice, either outcome, and a duplicate-name warning after 4 seconds (spec 02 §9)', () => {
    saveNotice.success('Changes saved successfully');
    saveNotice.error('Failed to save execution: the server is down');
    saveNotice.warning('Scenario name already exists; saved as “Pay (2)”.');
    expect(sonner.toast.success).toHaveBeenCalledWith('Changes saved successfully', { duration: 4000 });
    expect(sonner.toast.error).toHaveBeenCalledWith('Failed to save execution: the server is down', { duration: 4000 });
    expect(sonner.toast.warning).toHaveBeenCalledWith('Scenario name already exists; saved as “Pay (2)”.', { duration: 4000 });
  });
});
