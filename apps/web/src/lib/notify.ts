import { toast } from 'sonner';

/** Spec 01 §4: toasts close after 3 s. */
export const TOAST_DURATION_MS = 3000;
/** Spec 01 §4: snackbars close after 6 s. */
export const SNACKBAR_DURATION_MS = 6000;

/**
 * Snackbars (spec 01 §4): the outcome of a creation or a bulk deletion the user waited for
 * (a new project, a new branch, unused steps removed), kept on screen twice as long as the
 * passing toasts so it is read after the screen changes under it.
 */
export const snackbar = {
  success: (message: string) => toast.success(message, { duration: SNACKBAR_DURATION_MS }),
  error: (message: string) => toast.error(message, { duration: SNACKBAR_DURATION_MS }),
};
