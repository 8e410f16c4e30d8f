import { InstanceSettings, type InstanceSettingsInForce, type SignupPolicy } from '@rehearse/contract';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useSaveInstanceSettings } from '../../features/admin/queries';
import { Strings } from '../../lib/strings';
import { saveNotice } from '../../lib/notify';
import { InstanceSettingsSection } from './InstanceSettingsSection';

type Kind = SignupPolicy['kind'];

/** The settings this tab saves, checked by the contract's own rules. */
const SignupSettings = InstanceSettings.pick({ signup: true, defaultAllowedProjects: true });

const KINDS: { kind: Kind; label: string; hint: string }[] = [
  { kind: 'open', label: Strings.adminSignupOpen, hint: Strings.adminSignupOpenHint },
  { kind: 'invite', label: Strings.adminSignupInvite, hint: Strings.adminSignupInviteHint },
  { kind: 'domains', label: Strings.adminSignupDomains, hint: Strings.adminSignupDomainsHint },
  { kind: 'closed', label: Strings.adminSignupClosed, hint: Strings.adminSignupClosedHint },
];

/** Administration → Sign-up: who may create an account and new users' project allowance; applies at once. */
export function AdminSignupPage() {
  return (
    <InstanceSettingsSection
      id="admin-signup-title"
      tab={Strings.adminTabSignup}
      title={Strings.adminSignupTitle}
      intro={Strings.adminSignupIntro}
      form={(view) => <SignupForm saved={view.settings} />}
    />
  );
}

function SignupForm({ saved }: { saved: InstanceSettingsInForce }) {
  const save = useSaveInstanceSettings();
  const groupId = useId();
  const [kind, setKind] = useState<Kind>(saved.signup.kind);
  const [domains, setDomains] = useState(saved.signup.kind === 'domains' ? saved.signup.domains.join(', ') : '');
  const [allowed, setAllowed] = useState(String(saved.defaultAllowedProjects));
  const list = domains
    .split(',')
    .map((domain) => domain.trim())
    .filter(Boolean);
  // The contract's own rules check the form, with the sentences the server would answer.
  const checked = SignupSettings.safeParse({
    signup: kind === 'domains' ? { kind, domains: list } : { kind },
    defaultAllowedProjects: allowed.trim() === '' ? Number.NaN : Number(allowed.trim()),
  });
  const problem = (field: 'signup' | 'defaultAllowedProjects') =>
    checked.success ? null : (checked.error.issues.find((issue) => issue.path[0] === field)?.message ?? null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checked.success || save.isPending) return;
    save.mutate(checked.data, {
      onSuccess: () => saveNotice.success(Strings.adminSignupSaved),
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={Strings.adminSignupTitle}
      className="flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-xs"
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-medium text-slate-700">{Strings.adminSignupPolicy}</legend>
        {KINDS.map((option) => (
          <label
            key={option.kind}
            className={`flex cursor-pointer items-start gap-3 rounded-xl border p-4 text-sm ${
              kind === option.kind ? 'border-brand-500 bg-brand-50' : 'border-slate-200 hover:border-slate-300'
            }`}
          >
            <input
              type="radio"
              name={groupId}
              value={option.kind}
              checked={kind === option.kind}
              onChange={() => setKind(option.kind)}
              aria-describedby={`${groupId}-${option.kind}`}
              className="focus-ring mt-0.5 size-4 accent-brand-600"
            />
            <span className="flex flex-col">
              <span className="font-semibold text-slate-900">{option.label}</span>
              <span id={`${groupId}-${option.kind}`} className="text-slate-600">
                {option.hint}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {kind === 'domains' && (
        <TextField
          label={Strings.adminDomainsLabel}
          value={domains}
          onChange={(event) => setDomains(event.target.value)}
          error={problem('signup')}
          hint={Strings.adminDomainsHint}
        />
      )}
      <TextField
        label={Strings.adminDefaultProjectsLabel}
        inputMode="numeric"
        value={allowed}
        onChange={(event) => setAllowed(event.target.value)}
        error={problem('defaultAllowedProjects')}
        className="max-w-xs"
      />
      <div>
        <Button type="submit" disabled={!checked.success || save.isPending}>
          {save.isPending ? Strings.adminSaving : Strings.adminSave}
        </Button>
      </div>
    </form>
  );
}
