import type { ReactNode } from 'react';

/** What a report pane says when it has nothing to show (no screenshot, no console, no requests). */
export function EmptyPane({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-lg bg-slate-50 px-4 py-10 text-center text-sm text-slate-600">
      {children}
    </p>
  );
}
