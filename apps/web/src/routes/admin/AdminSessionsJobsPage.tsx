import { InstanceSettings, type InstanceSettingsChange, type InstanceSettingsView } from '@rehearse/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useSaveInstanceSettings } from '../../features/admin/queries';
import { Strings } from '../../lib/strings';
import { saveNotice } from '../../lib/notify';
import { InstanceSettingsSection } from './InstanceSettingsSection';
import { SettingSource } from './SettingSource';

type Field = 'sessionIdleHours' | 'jobAttempts' | 'jobRetryBackoffSeconds' | 'jobHistoryDays';

const FIELDS: { field: Field; label: string; hint: string }[] = [
  { field: 'sessionIdleHours', label: Strings.adminSessionIdleLabel, hint: Strings.adminSessionIdleHint },
  { field: 'jobAttempts', label: Strings.adminJobAttemptsLabel, hint: Strings.adminJobAttemptsHint },
  { field: 'jobRetryBackoffSeconds', label: Strings.adminJobBackoffLabel, hint: Strings.adminJobBackoffHint },
  { field: 'jobHistoryDays', label: Strings.adminJobHistoryLabel, hint: Strings.adminJobHistoryHint },
];

/**
 * Administration → Sessions & jobs: session idle hours, job attempts and retry backoff, and job
 * history days. Each overrides its environment variable and applies on every server within seconds;
 * beside each, whether its value is saved or the environment's, and a saved one can go back to the
 * environment's.
 */
export function AdminSessionsJobsPage() {
  return (
    <InstanceSettingsSection
      id="admin-sessions-jobs-title"
      tab={Strings.adminTabSessionsJobs}
      title={Strings.adminSessionsJobsTitle}
      intro={Strings.adminSessionsJobsIntro}
      form={(view) => <SessionsJobsForm view={view} />}
    />
  );
}

function SessionsJobsForm({ view }: { view: InstanceSettingsView }) {
  const { settings: saved, sources, environment } = view;
  const save = useSaveInstanceSettings();
  const [values, setValues] = useState<Record<Field, string>>({
    sessionIdleHours: String(saved.sessionIdleHours),
    jobAttempts: String(saved.jobAttempts),
    jobRetryBackoffSeconds: String(saved.jobRetryBackoffSeconds),
    jobHistoryDays: String(saved.jobHistoryDays),
  });
  // Saved values the administrator chose to clear: sent as null, so the environment's is in force again.
  const [resetting, setResetting] = useState<ReadonlySet<Field>>(new Set());
  const problems = new Map<Field, string>();
  const change: InstanceSettingsChange = {};
  for (const { field } of FIELDS) {
    if (resetting.has(field)) {
      change[field] = null;
      continue;
    }
    const text = values[field].trim();
    // Only the fields the administrator changed are checked and sent: a finer value the environment
    // set (JOB_HISTORY_DAYS=0.5) stays in force untouched instead of blocking the form.
    if (text === String(saved[field])) continue;
    // The contract's own rules, with the sentences the server would answer.
    const checked = InstanceSettings.shape[field].safeParse(text === '' ? Number.NaN : Number(text));
    if (checked.success) change[field] = checked.data;
    else problems.set(field, checked.error.issues[0]?.message ?? '');
  }
  const edit = (field: Field, text: string, reset: boolean) => {
    setValues((current) => ({ ...current, [field]: text }));
    setResetting((current) => {
      const next = new Set(current);
      if (reset) next.add(field);
      else next.delete(field);
      return next;
    });
  };

  const ready = Object.keys(change).length > 0 && problems.size === 0;

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
      {/* One column below 1280 px, so a label, its source and the reset control share one line. */}
      <div className="grid max-w-xl gap-6 xl:max-w-none xl:grid-cols-2">
        {FIELDS.map(({ field, label, hint }) => (
          <TextField
            key={field}
            label={label}
            labelExtra={
              <SettingSource
                label={label}
                source={sources[field]}
                environmentValue={String(environment[field])}
                resetting={resetting.has(field)}
                onReset={() => edit(field, String(environment[field]), true)}
                onKeep={() => edit(field, String(saved[field]), false)}
              />
            }
            inputMode="numeric"
            value={values[field]}
            // Typing a value of one's own takes back a pending "use environment value".
            onChange={(event) => edit(field, event.target.value, false)}
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
