import { InstanceSettings, type InstanceSettingsChange, type InstanceSettingsView, type SignupPolicy } from '@rehearse/contract';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useSaveInstanceSettings } from '../../features/admin/queries';
import { Strings } from '../../lib/strings';
import { saveNotice } from '../../lib/notify';
import { InstanceSettingsSection } from './InstanceSettingsSection';
import { SettingSource } from './SettingSource';
import { SingleSignOnSection } from './SingleSignOnSection';

type Kind = SignupPolicy['kind'];

/** The settings this tab saves, checked by the contract's own rules. */
const SignupSettings = InstanceSettings.pick({ signup: true, defaultAllowedProjects: true });

const KINDS: { kind: Kind; label: string; hint: string }[] = [
  { kind: 'open', label: Strings.adminSignupOpen, hint: Strings.adminSignupOpenHint },
  { kind: 'invite', label: Strings.adminSignupInvite, hint: Strings.adminSignupInviteHint },
  { kind: 'domains', label: Strings.adminSignupDomains, hint: Strings.adminSignupDomainsHint },
  { kind: 'closed', label: Strings.adminSignupClosed, hint: Strings.adminSignupClosedHint },
];

/**
 * Administration → Sign-up: who may create an account and new users' project allowance; applies at
 * once. Beside each, whether its value is saved or the environment's; a saved one can go back.
 */
export function AdminSignupPage() {
  return (
    <div className="flex flex-col gap-10">
      <InstanceSettingsSection
        id="admin-signup-title"
        tab={Strings.adminTabSignup}
        title={Strings.adminSignupTitle}
        intro={Strings.adminSignupIntro}
        form={(view) => <SignupForm view={view} />}
      />
      <SingleSignOnSection />
    </div>
  );
}

const domainsText = (policy: SignupPolicy) => (policy.kind === 'domains' ? policy.domains.join(', ') : '');

function SignupForm({ view }: { view: InstanceSettingsView }) {
  const { settings: saved, sources, environment } = view;
  const save = useSaveInstanceSettings();
  const groupId = useId();
  const [kind, setKind] = useState<Kind>(saved.signup.kind);
  const [domains, setDomains] = useState(domainsText(saved.signup));
  const [allowed, setAllowed] = useState(String(saved.defaultAllowedProjects));
  // Saved values the administrator chose to clear: sent as null, so the environment's is in force again.
  const [resetSignup, setResetSignup] = useState(false);
  const [resetAllowed, setResetAllowed] = useState(false);
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
  // Only what changed is sent, so an untouched setting keeps its source.
  const change: InstanceSettingsChange = {};
  if (resetSignup) change.signup = null;
  else if (checked.success && JSON.stringify(checked.data.signup) !== JSON.stringify(saved.signup)) change.signup = checked.data.signup;
  if (resetAllowed) change.defaultAllowedProjects = null;
  else if (checked.success && checked.data.defaultAllowedProjects !== saved.defaultAllowedProjects) {
    change.defaultAllowedProjects = checked.data.defaultAllowedProjects;
  }
  const ready = checked.success && Object.keys(change).length > 0;

  const chooseSignup = (policy: SignupPolicy, reset: boolean) => {
    setKind(policy.kind);
    setDomains(domainsText(policy));
    setResetSignup(reset);
  };
  const chooseAllowed = (text: string, reset: boolean) => {
    setAllowed(text);
    setResetAllowed(reset);
  };
  const policyLabel = (policy: SignupPolicy) => KINDS.find((option) => option.kind === policy.kind)?.label ?? policy.kind;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready || save.isPending) return;
    save.mutate(change, {
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
      <fieldset className="flex flex-col gap-3" aria-labelledby={`${groupId}-legend`}>
        <div className="mb-2 flex items-center gap-1.5">
          <span id={`${groupId}-legend`} className="text-sm font-medium text-slate-700">
            {Strings.adminSignupPolicy}
          </span>
          <SettingSource
            label={Strings.adminSignupPolicy}
            source={sources.signup}
            environmentValue={policyLabel(environment.signup)}
            resetting={resetSignup}
            onReset={() => chooseSignup(environment.signup, true)}
            onKeep={() => chooseSignup(saved.signup, false)}
          />
        </div>
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
              onChange={() => {
                setKind(option.kind);
                setResetSignup(false);
              }}
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
          onChange={(event) => {
            setDomains(event.target.value);
            setResetSignup(false);
          }}
          error={problem('signup')}
          hint={Strings.adminDomainsHint}
        />
      )}
      <TextField
        label={Strings.adminDefaultProjectsLabel}
        labelExtra={
          <SettingSource
            label={Strings.adminDefaultProjectsLabel}
            source={sources.defaultAllowedProjects}
            environmentValue={String(environment.defaultAllowedProjects)}
            resetting={resetAllowed}
            onReset={() => chooseAllowed(String(environment.defaultAllowedProjects), true)}
            onKeep={() => chooseAllowed(String(saved.defaultAllowedProjects), false)}
          />
        }
        inputMode="numeric"
        value={allowed}
        onChange={(event) => chooseAllowed(event.target.value, false)}
        error={problem('defaultAllowedProjects')}
        className="max-w-xl"
      />
      <div>
        <Button type="submit" disabled={!ready || save.isPending}>
          {save.isPending ? Strings.adminSaving : Strings.adminSave}
        </Button>
      </div>
    </form>
  );
}
