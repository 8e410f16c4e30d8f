import {
  BookOpen,
  ChartColumn,
  LifeBuoy,
  Database,
  FileCode2,
  GitPullRequestArrow,
  LayoutDashboard,
  PanelLeftClose,
  PanelLeftOpen,
  Play,
  Settings,
  type LucideIcon,
} from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Layout } from '../lib/layout';
import { Links } from '../lib/links';
import { Strings } from '../lib/strings';
import { Logo } from '../components/Logo';
import { UserMenu } from './UserMenu';

interface NavItem {
  label: string;
  /** Path under /{projectId}/. */
  path: string;
  icon: LucideIcon;
  /** Count shown as a badge (Code Review); capped at 99+. */
  badge?: number;
  /** Other paths under /{projectId}/ whose pages belong to this item (a detail page, a page it links to). */
  owns?: string[];
}

/**
 * The item a page belongs to: the one owning the longest path that starts the page's path, so
 * runs/instructions (linked from Executions, and back to it) lights Executions, not Reports.
 */
export function activeNavPath(items: readonly Pick<NavItem, 'path' | 'owns'>[], pathInProject: string): string | null {
  let best: { path: string; length: number } | null = null;
  for (const item of items) {
    for (const owned of [item.path, ...(item.owns ?? [])]) {
      const matches = pathInProject === owned || pathInProject.startsWith(`${owned}/`);
      if (matches && (!best || owned.length > best.length)) best = { path: item.path, length: owned.length };
    }
  }
  return best?.path ?? null;
}

/** A badge count as spec 01 §9 shows it: 99+ above 99. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const shortcut = isMac ? '⌘B' : 'Ctrl+B';

/**
 * The project sidebar: 300 px open, 83 px collapsed (labels then become tooltips but stay the
 * links' accessible names). Logo on top; the footer holds the contact-support and documentation
 * links (new tab), the collapse toggle and the user menu (spec 01 §2).
 */
export function Sidebar({
  projectId,
  open,
  onToggle,
  codeReviewCount,
}: {
  projectId: string;
  open: boolean;
  onToggle: () => void;
  codeReviewCount?: number;
}) {
  const items: NavItem[] = [
    { label: Strings.navDashboard, path: 'dashboard', icon: LayoutDashboard },
    { label: Strings.navFeatures, path: 'features', icon: FileCode2 },
    { label: Strings.navExecutions, path: 'executions', icon: Play, owns: ['execution', 'runs/instructions'] },
    { label: Strings.navReports, path: 'runs', icon: ChartColumn },
    { label: Strings.navCodeReview, path: 'ai-oversight', icon: GitPullRequestArrow, badge: codeReviewCount },
    { label: Strings.navTestData, path: 'test-data', icon: Database },
    { label: Strings.navSettings, path: 'settings', icon: Settings },
  ];
  const { pathname } = useLocation();
  const active = activeNavPath(items, pathname.slice(`/${projectId}/`.length));

  return (
    <aside
      data-testid="sidebar"
      data-state={open ? 'open' : 'collapsed'}
      style={{ width: open ? Layout.sidebarOpenWidth : Layout.sidebarCollapsedWidth }}
      className="flex shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] duration-200 ease-out"
    >
      <div className={`flex h-16 shrink-0 items-center border-b border-slate-200 ${open ? 'px-5' : 'justify-center'}`}>
        <Link to="/" aria-label={Strings.appName} className="focus-ring rounded-lg">
          <Logo compact={!open} />
        </Link>
      </div>
      <nav aria-label={Strings.mainNavigation} className="flex-1 overflow-y-auto px-4 py-5">
        <ul className="flex flex-col gap-1">
          {items.map(({ label, path, icon: Icon, badge }) => (
            <li key={path}>
              <Link
                to={`/${projectId}/${path}`}
                title={open ? undefined : label}
                aria-current={path === active ? 'page' : undefined}
                className={`focus-ring relative flex h-11 items-center gap-3 rounded-lg text-sm font-medium transition-colors ${
                  open ? 'px-3' : 'justify-center'
                } ${path === active ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'}`}
              >
                <Icon aria-hidden="true" className="size-5 shrink-0" />
                <span className={open ? 'truncate' : 'sr-only'}>{label}</span>
                {badge !== undefined && badge > 0 && (
                  <span
                    className={`rounded-full bg-brand-600 px-1.5 py-0.5 text-[11px] leading-none font-semibold text-white ${
                      open ? 'ml-auto' : 'absolute top-1 right-1'
                    }`}
                  >
                    {badgeText(badge)}
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className={`flex flex-col gap-1 border-t border-slate-200 p-4 ${open ? '' : 'items-center'}`}>
        <FooterLink href={Links.support} icon={LifeBuoy} label={Strings.contactSupport} open={open} />
        <FooterLink href={Links.docs} icon={BookOpen} label={Strings.documentation} open={open} />
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={open}
          aria-label={open ? Strings.collapseSidebar : Strings.expandSidebar}
          title={`${open ? Strings.collapseSidebar : Strings.expandSidebar} (${shortcut})`}
          className={`focus-ring flex h-10 items-center gap-3 rounded-lg text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900 ${
            open ? 'w-full px-3' : 'w-11 justify-center'
          }`}
        >
          {open ? <PanelLeftClose aria-hidden="true" className="size-5" /> : <PanelLeftOpen aria-hidden="true" className="size-5" />}
          {open && (
            <>
              <span>{Strings.collapseSidebar}</span>
              <kbd className="ml-auto rounded border border-slate-200 bg-slate-50 px-1.5 py-0.5 font-sans text-[11px] text-slate-600">
                {shortcut}
              </kbd>
            </>
          )}
        </button>
        <div className={`mt-2 border-t border-slate-100 pt-3 ${open ? '' : 'flex justify-center'}`}>
          <UserMenu placement="sidebar" compact={!open} />
        </div>
      </div>
    </aside>
  );
}

/** A footer link that opens in a new tab (support, documentation). */
function FooterLink({ href, icon: Icon, label, open }: { href: string; icon: LucideIcon; label: string; open: boolean }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={open ? undefined : label}
      className={`focus-ring flex h-10 items-center gap-3 rounded-lg text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900 ${
        open ? 'px-3' : 'w-11 justify-center'
      }`}
    >
      <Icon aria-hidden="true" className="size-5 shrink-0" />
      <span className={open ? 'truncate' : 'sr-only'}>{label}</span>
      <span className="sr-only">{Strings.opensInNewTab}</span>
    </a>
  );
}
