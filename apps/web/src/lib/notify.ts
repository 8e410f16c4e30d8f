import { toast } from 'sonner';

/** Spec 01 §4: toasts close after 3 s. */
export const TOAST_DURATION_MS = 3000;
/** Spec 02 §9 ("Notification timeouts: 4 s for saves and duplicate warnings"): a save's notice stays 4 s. */
export const SAVE_NOTICE_DURATION_MS = 4000;
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

/**
 * A save's outcome (spec 02 §9): "Changes saved successfully", "Execution saved successfully",
 * "Failed to save execution", a settings tab's saved notice. Shown 4 s, a second more than other
 * toasts; duplicate-name warnings take the same time.
 */
export const saveNotice = {
  success: (message: string) => toast.success(message, { duration: SAVE_NOTICE_DURATION_MS }),
  error: (message: string) => toast.error(message, { duration: SAVE_NOTICE_DURATION_MS }),
  warning: (message: string) => toast.warning(message, { duration: SAVE_NOTICE_DURATION_MS }),
};
