import { Link } from 'react-router';
import { Strings } from '../lib/strings';
import { Logo } from '../components/Logo';
import { UserMenu } from './UserMenu';

/**
 * The top header of screens outside a project: logo (home link) and the user menu (spec 01 §2).
 * Project screens have no header: the logo tops the sidebar and the user menu sits at its bottom.
 */
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
