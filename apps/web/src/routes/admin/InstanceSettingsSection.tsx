import type { InstanceSettingsView } from '@rehearse/contract';
import { Fragment, type ReactNode } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { useInstanceSettings } from '../../features/admin/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { SectionHeading } from '../settings/SettingsLayout';

/**
 * An Administration tab that edits instance settings: its heading, then a spinner, the load error
 * with Retry, or the tab's form for the settings in force. The form is keyed by what was loaded,
 * so a save (which reloads them) starts it again from the saved values.
 */
export function InstanceSettingsSection({
  id,
  tab,
  title,
  intro,
  form,
}: {
  id: string;
  /** The tab's name, for the document title. */
  tab: string;
  title: string;
  intro: string;
  /** The tab's form for the settings in force, where each comes from and the environment's values. */
  form: (view: InstanceSettingsView) => ReactNode;
}) {
  useDocumentTitle(`${tab} · ${Strings.adminTitle}`);
  const settings = useInstanceSettings();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-5">
      <SectionHeading id={id} title={title} intro={intro} />
      {settings.isPending ? (
        <FullPageSpinner />
      ) : settings.isError ? (
        <ErrorPanel title={Strings.adminLoadFailed} detail={errorMessage(settings.error)} onRetry={() => void settings.refetch()} />
      ) : (
        <Fragment key={JSON.stringify(settings.data)}>{form(settings.data)}</Fragment>
      )}
    </section>
  );
}
