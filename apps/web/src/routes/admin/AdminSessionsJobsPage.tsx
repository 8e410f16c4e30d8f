import { InstanceSettings, type InstanceSettingsChange, type InstanceSettingsInForce } from '@rehearse/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useSaveInstanceSettings } from '../../features/admin/queries';
import { Strings } from '../../lib/strings';
import { saveNotice } from '../../lib/notify';
import { InstanceSettingsSection } from './InstanceSettingsSection';

type Field = 'sessionIdleHours' | 'jobAttempts' | 'jobRetryBackoffSeconds' | 'jobHistoryDays';

const FIELDS: { field: Field; label: string; hint: string }[] = [
  { field: 'sessionIdleHours', label: Strings.adminSessionIdleLabel, hint: Strings.adminSessionIdleHint },
  { field: 'jobAttempts', label: Strings.adminJobAttemptsLabel, hint: Strings.adminJobAttemptsHint },
  { field: 'jobRetryBackoffSeconds', label: Strings.adminJobBackoffLabel, hint: Strings.adminJobBackoffHint },
  { field: 'jobHistoryDays', label: Strings.adminJobHistoryLabel, hint: Strings.adminJobHistoryHint },
];

/**
 * Administration → Sessions & jobs: session idle hours, job attempts and retry backoff, and job
 * history days. Each overrides its environment variable and applies on every server within seconds.
 */
export function AdminSessionsJobsPage() {
  return (
    <InstanceSettingsSection
      id="admin-sessions-jobs-title"
      tab={Strings.adminTabSessionsJobs}
      title={Strings.adminSessionsJobsTitle}
      intro={Strings.adminSessionsJobsIntro}
      form={(saved) => <SessionsJobsForm saved={saved} />}
    />
  );
}

function SessionsJobsForm({ saved }: { saved: InstanceSettingsInForce }) {
  const save = useSaveInstanceSettings();
  const [values, setValues] = useState<Record<Field, string>>({
    sessionIdleHours: String(saved.sessionIdleHours),
    jobAttempts: String(saved.jobAttempts),
    jobRetryBackoffSeconds: String(saved.jobRetryBackoffSeconds),
    jobHistoryDays: String(saved.jobHistoryDays),
  });
  // Only the fields the administrator changed are checked and sent: a finer value the environment
  // set (JOB_HISTORY_DAYS=0.5) stays in force untouched instead of blocking the form.
  const changed = FIELDS.map(({ field }) => field).filter((field) => values[field].trim() !== String(saved[field]));
  const problems = new Map<Field, string>();
  const change: InstanceSettingsChange = {};
  for (const field of changed) {
    const text = values[field].trim();
    // The contract's own rules, with the sentences the server would answer.
    const checked = InstanceSettings.shape[field].safeParse(text === '' ? Number.NaN : Number(text));
    if (checked.success) change[field] = checked.data;
    else problems.set(field, checked.error.issues[0]?.message ?? '');
  }
  const ready = changed.length > 0 && problems.size === 0;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready || save.isPending) return;
    save.mutate(change, { onSuccess: () => saveNotice.success(Strings.adminSessionsJobsSaved) });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={Strings.adminSessionsJobsTitle}
      className="flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-xs"
    >
      <div className="grid gap-6 md:grid-cols-2">
        {FIELDS.map(({ field, label, hint }) => (
          <TextField
            key={field}
            label={label}
            inputMode="numeric"
            value={values[field]}
            onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
            error={problems.get(field) ?? null}
            hint={hint}
          />
        ))}
      </div>
      <div>
        <Button type="submit" disabled={!ready || save.isPending}>
          {save.isPending ? Strings.adminSaving : Strings.adminSave}
        </Button>
      </div>
    </form>
  );
}
