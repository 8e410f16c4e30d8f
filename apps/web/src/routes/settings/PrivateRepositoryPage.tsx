import { Messages, type Project } from '@rehearse/contract';
import { format } from 'date-fns';
import { CheckCircle2, CircleAlert, GitBranch, LifeBuoy, LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { useLicence } from '../../features/licence/LicenceProvider';
import { useAuthorizePrivateRepo, usePrivateRepo } from '../../features/private-repo/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Links } from '../../lib/links';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';
import { SectionHeading } from './SettingsLayout';

/**
 * Integrations → private repository (spec 01 §4, §6; 02 §2, §5): a setup card, and once it is
 * opened the authorize form. A successful authorize reloads the page; disconnecting is only
 * through support.
 */
export function PrivateRepositoryPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${Strings.tabIntegrations} · ${project.name}`);
  const repo = usePrivateRepo(project.id);

  return (
    <section aria-labelledby="git-title" className="flex flex-col gap-6">
      <SectionHeading id="git-title" title={Strings.gitTitle} intro={Strings.gitTitleIntro} />
      {repo.isPending ? (
        <FullPageSpinner />
      ) : repo.isError ? (
        <ErrorPanel title={Strings.gitLoadFailed} detail={errorMessage(repo.error)} onRetry={() => void repo.refetch()} />
      ) : repo.data ? (
        <div className="flex items-start gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-xs" data-testid="git-connected">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-600">
            <CheckCircle2 aria-hidden="true" className="size-5" />
          </span>
          <div className="min-w-0 flex-1">
            <h3 className="text-base font-semibold text-slate-900">
              {Strings.gitCardTitle} · <span className="text-emerald-700">{Strings.gitConnected}</span>
            </h3>
            <p className="mt-1 text-sm break-all text-slate-600">{Strings.gitConnectedTo(repo.data.url)}</p>
            <p className="mt-1 text-sm text-slate-600">
              {Strings.gitConnectedAs(repo.data.username)}
              {repo.data.configuredAt && ` · ${Strings.gitConfiguredOn(format(new Date(repo.data.configuredAt), 'MMM dd, yyyy'))}`}
            </p>
            <p className="mt-4 flex items-center gap-2 text-sm text-slate-600">
              <LifeBuoy aria-hidden="true" className="size-4 text-slate-500" />
              {Strings.gitDisableNote}{' '}
              <a
                href={Links.support}
                target="_blank"
                rel="noopener noreferrer"
                className="focus-ring rounded font-semibold text-brand-700 underline underline-offset-2"
              >
                {Strings.contactSupport}
                <span className="sr-only"> {Strings.opensInNewTab}</span>
              </a>
            </p>
          </div>
        </div>
      ) : (
        <GitSetup project={project} />
      )}
    </section>
  );
}

/** The setup card and the authorize form (also the private-repo configuration screen). */
export function GitSetup({ project, startOpen = false }: { project: Project; startOpen?: boolean }) {
  const [formOpen, setFormOpen] = useState(startOpen);
  // Spec 01 §6: Set up Git is disabled for non-admins while the private repo is not enabled, and
  // enabling the integration requires support: until support has, the admin is told so too.
  const disabledReason = project.role !== 'ADMIN' ? Strings.gitAdminOnly : !project.privateRepo ? Messages.privateRepoNotEnabled : null;

  return (
    <div className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-xs">
      <div className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
          <GitBranch aria-hidden="true" className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="text-base font-semibold text-slate-900">{Strings.gitCardTitle}</h3>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{Strings.gitCardText}</p>
        </div>
        {!formOpen && (
          <Button onClick={() => setFormOpen(true)} disabledReason={disabledReason}>
            {Strings.gitSetUp}
          </Button>
        )}
      </div>
      {formOpen && <AuthorizeForm project={project} onCancel={() => setFormOpen(false)} />}
    </div>
  );
}

function AuthorizeForm({ project, onCancel }: { project: Project; onCancel: () => void }) {
  const presetUrl = project.privateRepoURL;
  const authorize = useAuthorizePrivateRepo(project.id);
  const licence = useLicence();
  const [fields, setFields] = useState({ username: '', token: '', url: presetUrl ?? '' });
  const [submitted, setSubmitted] = useState(false);

  const problems = {
    username: fields.username.trim() ? null : Strings.gitUsernameRequired,
    token: fields.token.trim() ? null : Strings.gitTokenRequired,
    url: presetUrl || fields.url.trim() ? null : Messages.privateRepoUrlRequired,
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (problems.username || problems.token || problems.url || authorize.isPending) return;
    licence.guard(() =>
      authorize.mutate(
        { username: fields.username.trim(), token: fields.token.trim(), url: fields.url.trim() || undefined },
        { onSuccess: () => window.location.reload() },
      ),
    );
  };

  const set = (key: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [key]: event.target.value }));

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4 border-t border-slate-100 pt-5" aria-label={Strings.gitAuthorize}>
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label={Strings.gitUsername}
          name="username"
          autoComplete="username"
          autoFocus
          value={fields.username}
          onChange={set('username')}
          disabled={authorize.isPending}
          error={submitted ? problems.username : null}
        />
        <TextField
          label={Strings.gitToken}
          name="token"
          type="password"
          autoComplete="off"
          value={fields.token}
          onChange={set('token')}
          disabled={authorize.isPending}
          hint={Strings.gitTokenHint}
          error={submitted ? problems.token : null}
        />
      </div>
      <TextField
        label={Strings.gitUrl}
        name="url"
        type="url"
        inputMode="url"
        spellCheck={false}
        placeholder={Strings.gitUrlPlaceholder}
        value={fields.url}
        readOnly={Boolean(presetUrl)}
        onChange={set('url')}
        disabled={authorize.isPending}
        error={submitted ? problems.url : null}
      />
      {authorize.isError && (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-700">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {errorMessage(authorize.error)}
        </p>
      )}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={authorize.isPending}>
          {Strings.cancel}
        </Button>
        <Button type="submit" disabled={authorize.isPending}>
          {authorize.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          {authorize.isPending ? Strings.gitAuthorizing : Strings.gitAuthorize}
        </Button>
      </div>
    </form>
  );
}

/**
 * Spec 01 §2: a private-repository project whose repository is not configured yet shows this
 * screen instead of its pages (run and scenario pages excepted).
 */
export function PrivateRepoRequiredPage({ project }: { project: Project }) {
  useDocumentTitle(Strings.gitNotConfiguredTitle);
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-8 py-10">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.gitNotConfiguredTitle}</h1>
        <p className="mt-2 text-slate-600">{Strings.gitNotConfiguredText}</p>
      </div>
      <GitSetup project={project} startOpen={project.role === 'ADMIN'} />
    </div>
  );
}
