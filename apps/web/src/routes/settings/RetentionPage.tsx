import { Messages, RunRetention } from '@rehearse/contract';
import { Archive } from 'lucide-react';
import { useDeferredValue, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { useRetention, useRetentionPreview, useSaveRetention } from '../../features/retention/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatBytes } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';
import { SectionHeading } from './SettingsLayout';
import { saveNotice } from '../../lib/notify';

/**
 * Settings → Retention: how long the project keeps its runs (days, newest count, or both), what it
 * stores now, and a dry run of the limits as they are typed: the count the next cleanup would delete.
 * Members see it; the admin saves it.
 */
export function RetentionPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${Strings.tabRetention} · ${project.name}`);
  const retention = useRetention(project.id);

  return (
    <section aria-labelledby="retention-title" className="flex flex-col gap-6">
      <SectionHeading id="retention-title" title={Strings.retentionTitle} intro={Strings.retentionIntro} />
      {retention.isPending ? (
        <FullPageSpinner />
      ) : retention.isError ? (
        <ErrorPanel title={Strings.retentionLoadFailed} detail={errorMessage(retention.error)} onRetry={() => void retention.refetch()} />
      ) : (
        <div className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-xs">
          <div className="flex items-start gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              <Archive aria-hidden="true" className="size-5" />
            </span>
            <p className="mt-2.5 text-sm text-slate-700" data-testid="retention-stored">
              {Strings.retentionStored(
                retention.data.stored.runs,
                retention.data.stored.testCases,
                formatBytes(retention.data.stored.artifactBytes),
              )}
            </p>
          </div>
          {/* Keyed by the saved rule: the form starts from it again once it is saved. */}
          <RetentionForm
            key={`${retention.data.retention.keepDays}:${retention.data.retention.keepRuns}`}
            projectId={project.id}
            saved={retention.data.retention}
            isAdmin={project.role === 'ADMIN'}
          />
        </div>
      )}
    </section>
  );
}

/** A limit field's text as the rule's value: empty is no limit; anything else must be a whole number in range. */
const limitOf = (text: string) => (text.trim() === '' ? null : Number(text.trim()));

function RetentionForm({ projectId, saved, isAdmin }: { projectId: string; saved: RunRetention; isAdmin: boolean }) {
  const [fields, setFields] = useState({ keepDays: saved.keepDays?.toString() ?? '', keepRuns: saved.keepRuns?.toString() ?? '' });
  const save = useSaveRetention(projectId);
  // The contract's own rule checks each field, with the sentences the server would answer.
  const checked = RunRetention.safeParse({ keepDays: limitOf(fields.keepDays), keepRuns: limitOf(fields.keepRuns) });
  const problem = (field: 'keepDays' | 'keepRuns') =>
    checked.success ? null : (checked.error.issues.find((issue) => issue.path[0] === field)?.message ?? null);
  const rule = useDeferredValue(checked.success ? checked.data : null);
  const preview = useRetentionPreview(projectId, rule);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checked.success || save.isPending) return;
    save.mutate(checked.data, {
      onSuccess: () => saveNotice.success(Strings.retentionSaved),
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-5" noValidate aria-label={Strings.retentionTitle}>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={Strings.retentionDaysLabel}
          inputMode="numeric"
          value={fields.keepDays}
          onChange={(event) => setFields({ ...fields, keepDays: event.target.value })}
          error={problem('keepDays')}
          hint={Strings.retentionDaysHint}
          disabled={!isAdmin}
        />
        <TextField
          label={Strings.retentionRunsLabel}
          inputMode="numeric"
          value={fields.keepRuns}
          onChange={(event) => setFields({ ...fields, keepRuns: event.target.value })}
          error={problem('keepRuns')}
          hint={Strings.retentionRunsHint}
          disabled={!isAdmin}
        />
      </div>
      <p role="status" className="text-sm text-slate-700" data-testid="retention-preview">
        {!rule
          ? ''
          : preview.isPending
            ? Strings.retentionPreviewChecking
            : preview.data && preview.data.runs > 0
              ? Strings.retentionPreview(preview.data.runs, preview.data.testCases, formatBytes(preview.data.artifactBytes))
              : preview.data
                ? Strings.retentionPreviewNothing
                : ''}
      </p>
      <div>
        <Button type="submit" disabledReason={isAdmin ? null : Messages.adminRoleRequired} disabled={!checked.success || save.isPending}>
          {save.isPending ? Strings.retentionSaving : Strings.retentionSave}
        </Button>
      </div>
    </form>
  );
}
