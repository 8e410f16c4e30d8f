import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Strings } from '../lib/strings';
import { Logo } from '../components/Logo';

/**
 * The top bar of a page that lives outside any project (Administration, the documentation): the
 * logo home, then what the page puts beside it. No project selector, licence or Record scenario.
 */
export function StandaloneHeader({ children }: { children: ReactNode }) {
  return (
    <header className="flex h-16 shrink-0 items-center gap-4 border-b border-slate-200 bg-white px-5">
      <Link to="/" aria-label={Strings.appName} className="focus-ring rounded-lg">
        <Logo />
      </Link>
      {children}
    </header>
  );
}
