import { Messages } from '@rehearse/contract';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { useLicence } from '../../features/licence/LicenceProvider';
import { useMailUsers, useSaveMailUser } from '../../features/test-data/queries';
import { TestDataStrings as T } from '../../features/test-data/strings';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { useCurrentProject } from '../project/current-project';
import { saveNotice } from '../../lib/notify';

/** Spec 02 §5: username and password required (trimmed); the secret key loses all whitespace. */
export function credentialInput(username: string, password: string, secretKey: string) {
  const input = { username: username.trim(), password: password.trim(), secretKey: secretKey.replace(/\s+/g, '') };
  return { input, error: input.username === '' || input.password === '' ? Messages.mailUserFieldsMissing : null };
}

/**
 * Add (`test-data/add`) or edit (`test-data/edit/{index}`) a user credential: username, password
 * and an optional authenticator secret key, through the mail-user calls.
 */
export function CredentialPage() {
  const { project } = useCurrentProject();
  const { index } = useParams();
  const editing = index !== undefined;
  useDocumentTitle(`${editing ? T.editCredential : T.addCredential} · ${project.name}`);
  const users = useMailUsers(project.id);
  const save = useSaveMailUser(project.id);
  const licence = useLicence();
  const navigate = useNavigate();
  const existing = editing ? users.data?.[Number(index)] : undefined;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [secretKey, setSecretKey] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!existing) return;
    // The server sends masked values; sent back unchanged they keep what is stored.
    setUsername(existing.username);
    setPassword(existing.password);
    setSecretKey(existing.secretKey ?? '');
  }, [existing]);

  const { input, error: ruleError } = credentialInput(username, password, secretKey);

  if (editing && users.isPending) return <FullPageSpinner label={T.editCredential} />;
  if (editing && users.isError) {
    return (
      <div className="p-8">
        <ErrorPanel title={Messages.getUserInfoFailed} detail={errorMessage(users.error)} onRetry={() => void users.refetch()} />
      </div>
    );
  }
  if (editing && !existing) {
    return (
      <div className="p-8">
        <ErrorPanel title={T.credentialNotFound} />
      </div>
    );
  }

  const submit = () =>
    licence.guard(() => {
      setTouched(true);
      if (ruleError) return;
      setError(null);
      save.mutate(
        { previous: existing?.username ?? null, input },
        {
          onSuccess: () => {
            saveNotice.success(Messages.changesSaved);
            void navigate(`/${project.id}/test-data`);
          },
          onError: (failure) => setError(`${Messages.addAuthenticatorFailed} (${errorMessage(failure)})`),
        },
      );
    });

  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 p-8">
      <Link
        to={`/${project.id}/test-data`}
        className="focus-ring flex items-center gap-1.5 self-start rounded text-sm font-medium text-brand-700 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {T.back}
      </Link>
      <h1 className="text-2xl font-semibold text-slate-900">{editing ? T.editCredential : T.addCredential}</h1>
      <form
        className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-xs"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField label={T.username} value={username} onChange={(event) => setUsername(event.target.value)} autoComplete="off" autoFocus />
        <TextField
          label={T.password}
          type="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="new-password"
        />
        <TextField
          label={T.secretKey}
          value={secretKey}
          onChange={(event) => setSecretKey(event.target.value)}
          hint={T.secretKeyHint}
          autoComplete="off"
        />
        {touched && ruleError && (
          <p role="alert" className="text-sm text-red-700">
            {ruleError}
          </p>
        )}
        {error && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => void navigate(`/${project.id}/test-data`)}>
            {T.cancel}
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? T.saving : T.save}
          </Button>
        </div>
      </form>
    </div>
  );
}
