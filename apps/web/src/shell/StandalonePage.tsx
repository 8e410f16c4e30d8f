import type { ReactNode } from 'react';
import { Header } from './Header';

/** A page of the account, outside any project (Get Started, Two-factor sign-in): the header, and one centred column. */
export function StandalonePage({ children }: { children: ReactNode }) {
  return (
    <div className="flex h-full flex-col">
      <Header />
      <main id="main" className="min-h-0 flex-1 overflow-y-auto bg-slate-50">
        <div className="mx-auto flex max-w-3xl flex-col gap-6 px-6 py-10">{children}</div>
      </main>
    </div>
  );
}
