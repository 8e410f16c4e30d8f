import { Strings } from '../lib/strings';

/** The Rehearse mark and word; the word hides when `compact`. */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2.5">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="8" className="fill-brand-600" />
        <path d="M11 8v16l13-8z" fill="#fff" />
      </svg>
      {!compact && <span className="text-lg font-bold tracking-tight text-slate-900">{Strings.appName}</span>}
    </span>
  );
}
