import { Messages, type AdminWorkerToken, type ConnectedAgent } from '@rehearse/contract';
import { formatDistanceToNowStrict } from 'date-fns';
import { Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { CopyButton } from '../../components/CopyButton';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { useAdminWorkers, useCreateWorkerToken, useDeleteWorkerToken } from '../../features/admin/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { SectionHeading } from '../settings/SettingsLayout';

const ago = (iso: string) => formatDistanceToNowStrict(new Date(iso), { addSuffix: true });
const when = (iso: string) => {
  const { date, time } = formatDateTime(iso);
  return `${date} ${time}`;
};

/** Administration → Workers: agents connected now (threads, last heartbeat) and the tokens they use. */
export function AdminWorkersPage() {
  useDocumentTitle(`${Strings.adminTabWorkers} · ${Strings.adminTitle}`);
  const workers = useAdminWorkers();
  const remove = useDeleteWorkerToken();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<AdminWorkerToken | null>(null);

  const agentColumns: Column<ConnectedAgent>[] = [
    { id: 'host', header: Strings.adminAgentHost, cell: (agent) => <span className="font-medium text-slate-900">{agent.host}</span> },
    { id: 'token', header: Strings.adminAgentToken, cell: (agent) => agent.tokenName },
    {
      id: 'threads',
      header: Strings.adminAgentThreads,
      cell: (agent) => Strings.adminAgentBusy(agent.busyThreads, agent.threads),
      className: 'w-40',
    },
    {
      id: 'heartbeat',
      header: Strings.adminAgentHeartbeat,
      cell: (agent) => <time dateTime={agent.lastHeartbeatAt}>{ago(agent.lastHeartbeatAt)}</time>,
      className: 'w-44',
    },
  ];
  const tokenColumns: Column<AdminWorkerToken>[] = [
    { id: 'name', header: Strings.adminTokenName, cell: (token) => <span className="font-medium text-slate-900">{token.name}</span> },
    { id: 'created', header: Strings.adminTokenCreated, cell: (token) => when(token.createdAt), className: 'w-56' },
    {
      id: 'seen',
      header: Strings.adminTokenLastSeen,
      cell: (token) => (token.lastSeenAt ? ago(token.lastSeenAt) : Strings.adminTokenNever),
      className: 'w-44',
    },
    {
      id: 'actions',
      header: Strings.adminUserActions,
      srOnlyHeader: true,
      className: 'w-28 text-right',
      cell: (token) => (
        <Button size="sm" variant="secondary" aria-label={Strings.adminRevokeToken(token.name)} onClick={() => setRevoking(token)}>
          {Strings.adminRevoke}
        </Button>
      ),
    },
  ];

  if (workers.isError) {
    return <ErrorPanel title={Strings.adminLoadFailed} detail={errorMessage(workers.error)} onRetry={() => void workers.refetch()} />;
  }
  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="admin-agents-title" className="flex flex-col gap-5">
        <SectionHeading id="admin-agents-title" title={Strings.adminAgentsTitle} intro={Strings.adminAgentsIntro} />
        <DataTable
          page={Strings.adminAgentsPage}
          label={Strings.adminAgentsTitle}
          columns={agentColumns}
          rows={workers.data?.agents}
          rowKey={(agent) => `${agent.tokenId} ${agent.host}`}
          loading={workers.isPending}
          testId="admin-agents"
        />
      </section>
      <section aria-labelledby="admin-tokens-title" className="flex flex-col gap-5">
        <SectionHeading id="admin-tokens-title" title={Strings.adminTokensTitle} intro={Strings.adminTokensIntro}>
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" className="size-4" />
            {Strings.adminNewToken}
          </Button>
        </SectionHeading>
        <DataTable
          page={Strings.adminTokensPage}
          label={Strings.adminTokensTitle}
          columns={tokenColumns}
          rows={workers.data?.tokens}
          rowKey={(token) => token.id}
          searchText={(token) => token.name}
          loading={workers.isPending}
          testId="admin-tokens"
        />
      </section>
      {creating && <CreateTokenDialog onClose={() => setCreating(false)} />}
      <ConfirmDeleteDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        what={Strings.adminWorkerTokenWhat}
        name={revoking?.name ?? ''}
        title={Strings.adminRevokeTitle}
        question={revoking ? Strings.adminRevokeText(revoking.name) : ''}
        confirmLabel={Strings.adminRevoke}
        onConfirm={async () => {
          if (!revoking) return;
          await remove.mutateAsync(revoking.id);
          toast.success(Strings.adminTokenRevoked);
        }}
      />
    </div>
  );
}

function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateWorkerToken();
  const [name, setName] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const trimmed = name.trim();
  const ok = trimmed.length >= 1 && trimmed.length <= 100;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ok || create.isPending) return;
    create.mutate(trimmed, {
      onSuccess: ({ token }) => setMade(token),
    });
  };
  const command = made ? `npx rehearse worker --server ${window.location.origin} --token ${made}` : '';
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={made ? Strings.adminTokenCreatedTitle : Strings.adminNewToken}
      description={made ? Strings.adminTokenShownOnce : Strings.adminTokensIntro}
      testId="admin-token-dialog"
      size="lg"
    >
      {made ? (
        <div className="flex flex-col gap-4">
          <div className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3">
            <code className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900" data-testid="admin-new-token">
              {made}
            </code>
            <CopyButton text={made} label={Strings.adminCopyToken} />
          </div>
          <p className="text-sm font-medium text-slate-700">{Strings.adminTokenCommand}</p>
          <div className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3">
            <code className="min-w-0 flex-1 font-mono text-xs break-all text-slate-800">{command}</code>
            <CopyButton text={command} label={Strings.adminCopyCommand} />
          </div>
          <div className="flex justify-end">
            <Button onClick={onClose}>{Strings.adminDone}</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-5">
          <TextField
            label={Strings.adminTokenNameLabel}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={name && !ok ? Messages.adminWorkerTokenName : null}
            hint={Strings.adminTokenNameHint}
            autoFocus
          />
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              {Strings.adminCancel}
            </Button>
            <Button type="submit" disabled={!ok || create.isPending}>
              {Strings.adminCreateToken}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
