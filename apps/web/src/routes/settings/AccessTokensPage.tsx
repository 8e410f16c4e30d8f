import { Messages, type AccessKey } from '@rehearse/contract';
import { KeyRound, LoaderCircle, Plus, ShieldAlert, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { CopyButton } from '../../components/CopyButton';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorPanel } from '../../components/ErrorPanel';
import { IconButton } from '../../components/IconButton';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { useAccessTokens, useCreateAccessToken, useDeleteAccessToken } from '../../features/access-tokens/queries';
import { useLicence } from '../../features/licence/LicenceProvider';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';
import { SectionHeading } from './SettingsLayout';

function DateCell({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-slate-500">{Strings.never}</span>;
  const { date, time } = formatDateTime(iso);
  return (
    <time dateTime={iso} className="flex flex-col leading-tight">
      <span className="text-slate-800">{date}</span>
      <span className="text-xs text-slate-500">{time}</span>
    </time>
  );
}

/**
 * Access tokens (spec 01 §2, §5): the table and the Generate new token modal, which shows a new
 * token once. `/settings/new-access-token` arrives here with the modal open.
 */
export function AccessTokensPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${Strings.tabAccessTokens} · ${project.name}`);
  const location = useLocation();
  const tokens = useAccessTokens(project.id);
  const remove = useDeleteAccessToken(project.id);
  const licence = useLicence();
  const [generateOpen, setGenerateOpen] = useState(() => (location.state as { generate?: boolean } | null)?.generate === true);
  const [target, setTarget] = useState<AccessKey | null>(null);

  const columns: Column<AccessKey>[] = [
    { id: 'name', header: Strings.tokenColumnName, cell: (key) => <span className="font-medium text-slate-900">{key.name}</span> },
    { id: 'token', header: Strings.tokenColumnToken, cell: (key) => <code className="font-mono text-xs text-slate-600">{key.token}</code> },
    { id: 'created', header: Strings.tokenColumnCreated, cell: (key) => <DateCell iso={key.createdAt} /> },
    { id: 'used', header: Strings.tokenColumnLastUsed, cell: (key) => <DateCell iso={key.lastUsedAt} /> },
    {
      id: 'actions',
      header: Strings.tokenColumnActions,
      srOnlyHeader: true,
      className: 'w-16 text-right',
      cell: (key) => (
        <IconButton label={Strings.tokenDelete(key.name)} icon={Trash2} tone="danger" onClick={() => licence.guard(() => setTarget(key))} />
      ),
    },
  ];

  return (
    <section aria-labelledby="tokens-title" className="flex flex-col gap-6">
      <SectionHeading id="tokens-title" title={Strings.tokensTitle} intro={Strings.tokensIntro}>
        <Button onClick={() => licence.guard(() => setGenerateOpen(true))}>
          <Plus aria-hidden="true" className="size-4" />
          {Strings.tokenGenerate}
        </Button>
      </SectionHeading>
      {tokens.isError ? (
        <ErrorPanel title={Strings.tokensLoadFailed} detail={errorMessage(tokens.error)} onRetry={() => void tokens.refetch()} />
      ) : (
        <DataTable
          page={Strings.tokensNoun}
          label={Strings.tokensTitle}
          testId="tokens-table"
          columns={columns}
          rows={tokens.data}
          loading={tokens.isPending}
          rowKey={(key) => key.id}
          searchText={(key) => key.name}
        />
      )}
      <GenerateTokenDialog open={generateOpen} onOpenChange={setGenerateOpen} />
      <ConfirmDeleteDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        what={Strings.tokenNoun}
        name={target?.name ?? ''}
        onConfirm={async () => {
          if (!target) return;
          await remove.mutateAsync(target.id);
          toast.success(Strings.tokenDeleted(target.name));
        }}
      />
    </section>
  );
}

function GenerateTokenDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { project } = useCurrentProject();
  const create = useCreateAccessToken(project.id);
  const navigate = useNavigate();
  const location = useLocation();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  // The whole token lives only here, in memory, until the dialog closes.
  const [created, setCreated] = useState<AccessKey | null>(null);

  const change = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setName('');
      setTouched(false);
      setCreated(null);
      create.reset();
      // Arrived through /settings/new-access-token: forget that, so a reload does not reopen it.
      if ((location.state as { generate?: boolean } | null)?.generate) void navigate('.', { replace: true, state: null });
    }
  };

  const empty = name.trim() === '';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (empty || create.isPending) return;
    create.mutate(name.trim(), { onSuccess: (key) => setCreated(key) });
  };

  return (
    <Modal
      open={open}
      onOpenChange={change}
      dismissible={!create.isPending}
      title={created ? Strings.tokenCreatedTitle : Strings.tokenGenerateTitle}
      testId="generate-token-dialog"
    >
      {created ? (
        <div className="flex flex-col gap-4">
          <p className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2.5 text-sm text-amber-900">
            <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {Strings.tokenCreatedWarning}
          </p>
          <div className="flex items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2">
            <KeyRound aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
            <code data-testid="new-token" className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900">
              {created.token}
            </code>
            <CopyButton text={created.token} />
          </div>
          <div className="flex justify-end">
            <Button onClick={() => change(false)}>{Strings.done}</Button>
          </div>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <TextField
            label={Strings.tokenName}
            name="name"
            autoComplete="off"
            autoFocus
            placeholder={Strings.tokenNamePlaceholder}
            value={name}
            disabled={create.isPending}
            onChange={(event) => {
              setName(event.target.value);
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            error={touched && empty ? Messages.tokenNameEmpty : create.isError ? errorMessage(create.error) : null}
          />
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={() => change(false)} disabled={create.isPending}>
              {Strings.cancel}
            </Button>
            <Button type="submit" disabled={empty || create.isPending}>
              {create.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              {create.isPending ? Strings.tokenGenerating : Strings.tokenGenerateSubmit}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
