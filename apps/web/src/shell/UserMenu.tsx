import { ApiError } from '@rehearse/api-client';
import { ChevronsUpDown, KeyRound, LogOut, Rocket, ShieldCheck } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useLogout, useMe } from '../features/auth/queries';
import { TruncateAt, truncate } from '../lib/format';
import { Strings } from '../lib/strings';
import { Menu, MenuHeader, MenuItem } from '../components/Menu';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

/**
 * The user menu: who is signed in, Get Started (onboarding) and Logout. In the header of screens
 * outside a project, and at the bottom of the project sidebar (spec 01 §2), where it opens
 * upwards and shows only the initials when the sidebar is collapsed.
 */
export function UserMenu({ placement = 'header', compact = false }: { placement?: 'header' | 'sidebar'; compact?: boolean }) {
  const me = useMe();
  const logout = useLogout();
  const navigate = useNavigate();
  const name = me.data?.name ?? '';
  const email = me.data?.email ?? '';
  const inSidebar = placement === 'sidebar';

  const onLogout = () => {
    logout.mutate(undefined, {
      onError: (error) => {
        // A 401 means the session was already gone: the user is signed out either way.
        if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(Strings.logoutFailed);
      },
    });
  };

  return (
    <Menu
      label={Strings.userMenuLabel}
      align={inSidebar ? 'start' : 'end'}
      side={inSidebar ? 'top' : 'bottom'}
      className={inSidebar && !compact ? 'w-full' : ''}
      buttonClassName={`flex items-center gap-2.5 hover:bg-slate-100 ${
        inSidebar ? (compact ? 'size-11 justify-center rounded-lg' : 'w-full rounded-lg p-2') : 'rounded-full py-1 pr-2.5 pl-1'
      }`}
      button={
        <>
          <span
            aria-hidden="true"
            className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800"
          >
            {me.data ? initials(name) : ''}
          </span>
          {!compact && (
            <span className="flex min-w-0 flex-1 flex-col text-left">
              <span className="truncate text-sm font-medium text-slate-700" title={name} data-testid="user-name">
                {truncate(name, ...TruncateAt.userName)}
              </span>
              {inSidebar && (
                <span className="truncate text-xs text-slate-500" title={email}>
                  {truncate(email, ...TruncateAt.email)}
                </span>
              )}
            </span>
          )}
          {!compact && <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-slate-500" />}
        </>
      }
    >
      <MenuHeader>
        <p className="text-sm font-semibold text-slate-900" title={name}>
          {truncate(name, ...TruncateAt.userName)}
        </p>
        <p className="text-xs text-slate-500" title={email}>
          {truncate(email, ...TruncateAt.email)}
        </p>
      </MenuHeader>
      <MenuItem onSelect={() => void navigate('/onboarding')}>
        <Rocket aria-hidden="true" className="size-4 text-slate-500" />
        {Strings.userMenuGetStarted}
      </MenuItem>
      <MenuItem onSelect={() => void navigate('/account/two-factor')}>
        <KeyRound aria-hidden="true" className="size-4 text-slate-500" />
        {Strings.userMenuTwoFactor}
      </MenuItem>
      {me.data?.instanceAdmin && (
        <MenuItem onSelect={() => void navigate('/admin/users')}>
          <ShieldCheck aria-hidden="true" className="size-4 text-slate-500" />
          {Strings.navAdministration}
        </MenuItem>
      )}
      <MenuItem onSelect={onLogout}>
        <LogOut aria-hidden="true" className="size-4 text-slate-500" />
        {Strings.userMenuLogout}
      </MenuItem>
    </Menu>
  );
}
