import { SsoSettingsChange, type SsoSettingsView } from '@rehearse/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { useSingleSignOn, useSingleSignOnChanges } from '../../features/admin/queries';
import { errorMessage } from '../../lib/api';
import { saveNotice } from '../../lib/notify';
import { Strings } from '../../lib/strings';
import { SectionHeading } from '../settings/SettingsLayout';

/**
 * Administration → Sign-up → Single sign-on: the team's OpenID provider, saved here (checked by the
 * server against the provider before it is kept) or taken from the OIDC_* variables. The secret is
 * never shown again once kept; leaving it empty keeps it.
 */
export function SingleSignOnSection() {
  const sso = useSingleSignOn();
  return (
    <section aria-labelledby="admin-sso-title" className="flex flex-col gap-5">
      <SectionHeading id="admin-sso-title" title={Strings.adminSsoTitle} intro={Strings.adminSsoIntro} />
      {sso.isError ? (
        <ErrorPanel title={Strings.adminLoadFailed} detail={errorMessage(sso.error)} onRetry={() => void sso.refetch()} />
      ) : sso.data ? (
        <SingleSignOnForm key={JSON.stringify(sso.data)} view={sso.data} />
      ) : (
        <Spinner />
      )}
    </section>
  );
}

function SingleSignOnForm({ view }: { view: SsoSettingsView }) {
  const { save, clear } = useSingleSignOnChanges();
  const [issuer, setIssuer] = useState(view.issuer ?? '');
  const [clientId, setClientId] = useState(view.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [name, setName] = useState(view.name ?? '');
  const [touched, setTouched] = useState(false);
  const body = { issuer, clientId, name, ...(clientSecret.trim() ? { clientSecret } : {}) };
  // The contract's own rules check the form, with the sentences the server would answer.
  const checked = SsoSettingsChange.safeParse(body);
  const problem = (field: keyof SsoSettingsChange) =>
    touched && !checked.success ? checked.error.issues.find((issue) => issue.path[0] === field)?.message : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!checked.success || save.isPending) return;
    save.mutate(checked.data, { onSuccess: () => saveNotice.success(Strings.adminSsoSaved) });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={Strings.adminSsoTitle}
      className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-xs"
    >
      <p className="text-sm text-slate-700">
        <span className="font-medium">{Strings.adminSsoTitle}: </span>
        <span data-testid="sso-source">{Strings.adminSsoSource[view.source]}</span>
      </p>
      <div className="grid gap-5 md:grid-cols-2">
        <TextField
          label={Strings.adminSsoIssuer}
          value={issuer}
          onChange={(event) => setIssuer(event.target.value)}
          hint={Strings.adminSsoIssuerHint}
          error={problem('issuer')}
        />
        <TextField
          label={Strings.adminSsoClientId}
          value={clientId}
          onChange={(event) => setClientId(event.target.value)}
          error={problem('clientId')}
        />
        <TextField
          label={Strings.adminSsoClientSecret}
          type="password"
          autoComplete="off"
          value={clientSecret}
          onChange={(event) => setClientSecret(event.target.value)}
          hint={view.clientSecretSet ? Strings.adminSsoClientSecretKept : undefined}
          error={problem('clientSecret')}
        />
        <TextField
          label={Strings.adminSsoName}
          value={name}
          onChange={(event) => setName(event.target.value)}
          hint={Strings.adminSsoNameHint}
          error={problem('name')}
        />
      </div>
      <div>
        <p className="text-sm font-medium text-slate-700">{Strings.adminSsoRedirect}</p>
        <p className="mt-1 font-mono text-sm break-all text-slate-900" data-testid="sso-redirect">
          {view.redirectUri}
        </p>
      </div>
      {save.isError && <ErrorPanel title={Strings.adminSsoTitle} detail={errorMessage(save.error)} />}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          {Strings.adminSsoSave}
        </Button>
        {view.source === 'saved' && (
          <Button
            variant="secondary"
            disabled={clear.isPending}
            onClick={() => clear.mutate(undefined, { onSuccess: () => saveNotice.success(Strings.adminSsoCleared) })}
          >
            {Strings.adminSsoClear}
          </Button>
        )}
      </div>
    </form>
  );
}
