import { format } from 'date-fns';

/**
 * Cuts `text` to `keep` characters plus an ellipsis when it is longer than `max` (spec 01 §9:
 * user name 18 → 15, email 21 → 18, menu titles 37, project labels 8 → 7).
 */
export function truncate(text: string, max: number, keep = max): string {
  return text.length > max ? `${text.slice(0, keep)}…` : text;
}

export const TruncateAt = {
  userName: [18, 15],
  email: [21, 18],
  menuTitle: [37, 37],
  selectorLabel: [8, 7],
} as const satisfies Record<string, readonly [number, number]>;

/** Only same-app paths may be a callbackUrl; anything else (another origin, `//host`) goes home. */
export function safeCallbackUrl(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value === '/login' || value.startsWith('/login?') || value.startsWith('/login/')) return '/';
  return value;
}

/** Spec 01 §9: dates as 'MMM dd, yyyy' and times as 'hh:mm:ss a' (date-fns tokens). */
export function formatDateTime(iso: string): { date: string; time: string } {
  const at = new Date(iso);
  return { date: format(at, 'MMM dd, yyyy'), time: format(at, 'hh:mm:ss a') };
}

/** Bytes as people read disk use: 0 B, 512 B, 4.2 KB, 13.0 MB, 1.5 GB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
