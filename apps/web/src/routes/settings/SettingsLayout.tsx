import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { TabNav } from '../../components/TabNav';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

/**
 * Settings (spec 01 §2, 02 §2): one heading and the tabs Team members, Access tokens,
 * Integrations (private repository), Retention (the product's: how long runs are kept) and Code cleanup. The tabs are links: each section has its
 * own address (`/{projectId}/settings/...`, and `/{projectId}/code-cleanup`).
 */
export function SettingsLayout() {
  const context = useCurrentProject();
  const { project } = context;
  const tabs = [
    { to: `/${project.id}/settings/members`, label: Strings.tabMembers },
    { to: `/${project.id}/settings/access-tokens`, label: Strings.tabAccessTokens },
    { to: `/${project.id}/settings/private-repository`, label: Strings.tabIntegrations },
    { to: `/${project.id}/settings/retention`, label: Strings.tabRetention },
    { to: `/${project.id}/code-cleanup`, label: Strings.tabCodeCleanup },
  ];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-8 py-8">
      <div>
        <p className="text-sm font-medium text-brand-700">{project.name}</p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">{Strings.settingsTitle}</h1>
      </div>
      <TabNav label={Strings.settingsTabs} tabs={tabs} />
      <Outlet context={context} />
    </div>
  );
}

/** A settings section's heading and one-line introduction. */
export function SectionHeading({
  id,
  title,
  intro,
  children,
}: {
  /** The id the section's aria-labelledby points at. */
  id: string;
  title: string;
  intro: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex items-end justify-between gap-6">
      <div>
        <h2 id={id} className="text-xl font-semibold text-slate-900">
          {title}
        </h2>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">{intro}</p>
      </div>
      {children}
    </div>
  );
}
