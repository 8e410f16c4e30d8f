import { Link } from 'react-router';
import { Strings } from '../lib/strings';
import { Logo } from './Logo';
import { UserMenu } from './UserMenu';

/** The top header: logo (home link) and the user menu (spec 01 §2). */
export function Header() {
  return (
    <header className="flex h-16 shrink-0 items-center justify-between border-b border-slate-200 bg-white px-5">
      <Link to="/" aria-label={Strings.appName} className="focus-ring rounded-lg">
        <Logo />
      </Link>
      <UserMenu />
    </header>
  );
}
