import { environmentDisplayName, MASKED_SECRET, Messages, TestDataType, type TestDataRow } from '@rehearse/contract';
import { ChevronLeft, ChevronRight, Eye, EyeOff, KeyRound, Pencil, Plus, Trash2, UserRound } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { IconButton } from '../../components/IconButton';
import { FullPageSpinner } from '../../components/Spinner';
import { useEnvironments } from '../../features/environments/queries';
import { useLicence } from '../../features/licence/LicenceProvider';
import {
  useChangeTestData,
  useDeleteMailUser,
  useMailUsers,
  useRevealSecret,
  useTestData,
  useTotpCode,
} from '../../features/test-data/queries';
import { TestDataStrings as T } from '../../features/test-data/strings';
import { useWorkspaceScope, type WorkspaceScope } from '../../features/workspace/scope';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { useCurrentProject } from '../project/current-project';
import { saveNotice } from '../../lib/notify';

/** Spec 02 §2, §9: page sizes 5, 10, 25, 50, 100; default 10. */
export const PAGE_SIZES = [5, 10, 25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 10;
const ALL_ENVIRONMENTS = '*';

interface EditState {
  /** Index in the stored list, or null for a new row. */
  index: number | null;
  row: TestDataRow;
  error: string | null;
}

/**
 * The first broken rule of a row about to be saved (spec 02 §5): every field required; a key once
 * per environment. `others` are the rows it is saved with.
 */
export function rowError(row: TestDataRow, others: readonly TestDataRow[]): string | null {
  if (row.key.trim() === '' || row.value === '' || !row.DataType || row.environment.trim() === '') return T.fieldsRequired;
  const key = row.key.trim();
  if (others.some((other) => other.key.trim() === key && other.environment === row.environment)) return Messages.testDataKeyTaken;
  return null;
}

/** Test data (spec 02 §2): rows in view/edit mode, string/secret/totp, environment '*' = all, paging. */
export function TestDataPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${T.title} · ${project.name}`);
  const scope = useWorkspaceScope(project);
  const data = useTestData(scope);
  const change = useChangeTestData(scope);
  const environments = useEnvironments(scope);
  const licence = useLicence();
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<EditState | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);

  const rows = useMemo(() => data.data ?? [], [data.data]);
  const envNames = useMemo(
    () => [ALL_ENVIRONMENTS, ...(environments.data?.allEnv ?? []).map((env) => environmentDisplayName(env.name))],
    [environments.data],
  );
  // A new row is shown first, on the first page.
  const shown: { index: number | null; row: TestDataRow }[] = [
    ...(editing && editing.index === null ? [{ index: null, row: editing.row }] : []),
    ...rows.map((row, index) => ({ index, row })),
  ];
  const pages = Math.max(1, Math.ceil(shown.length / pageSize));
  useEffect(() => {
    if (page > pages - 1) setPage(pages - 1);
  }, [page, pages]);
  const visible = shown.slice(page * pageSize, (page + 1) * pageSize);

  const save = async () => {
    if (!editing) return;
    const others = rows.filter((_, i) => i !== editing.index);
    const problem = rowError(editing.row, others);
    if (problem) {
      setEditing({ ...editing, error: problem });
      return;
    }
    const row = { ...editing.row, key: editing.row.key.trim() };
    const next = editing.index === null ? [row, ...rows] : rows.map((r, i) => (i === editing.index ? row : r));
    try {
      const answer = await change.mutateAsync(next);
      setEditing(null);
      saveNotice.success(Messages.changesSaved);
      if (answer.dropped > 0) toast.warning(T.dropped(answer.dropped));
    } catch (error) {
      setEditing({ ...editing, error: errorMessage(error) });
    }
  };

  const startAdd = () =>
    licence.guard(() => {
      setEditing({ index: null, row: { key: '', value: '', DataType: 'string', environment: ALL_ENVIRONMENTS }, error: null });
      setPage(0);
    });

  if (data.isPending) return <FullPageSpinner label={T.title} />;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 p-8">
      <header className="flex flex-wrap items-end gap-4">
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-semibold text-slate-900">{T.title}</h1>
          <p className="mt-1 text-sm text-slate-600">{T.intro}</p>
        </div>
        <Button onClick={startAdd} disabled={editing !== null && editing.index === null}>
          <Plus aria-hidden="true" className="size-4" />
          {T.addRow}
        </Button>
      </header>

      {data.isError ? (
        <ErrorPanel title={T.loadFailed} detail={errorMessage(data.error)} onRetry={() => void data.refetch()} />
      ) : (
        <section className="rounded-2xl border border-slate-200 bg-white shadow-xs">
          <div className="overflow-x-auto rounded-t-2xl">
            <table className="w-full text-left text-sm" aria-label={T.tableLabel} data-testid="test-data-table">
              <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    {T.key}
                  </th>
                  <th scope="col" className="px-4 py-3">
                    {T.value}
                  </th>
                  <th scope="col" className="w-32 px-4 py-3">
                    {T.dataType}
                  </th>
                  <th scope="col" className="w-48 px-4 py-3">
                    {T.environment}
                  </th>
                  <th scope="col" className="w-28 px-4 py-3">
                    <span className="sr-only">{T.actions}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {visible.length === 0 && (
                  <tr>
                    <td colSpan={5} className="px-4 py-10 text-center">
                      <p className="text-sm font-medium text-slate-800">{T.empty}</p>
                      <p className="mt-1 text-sm text-slate-600">{T.emptyHint}</p>
                    </td>
                  </tr>
                )}
                {visible.map(({ index, row }) =>
                  editing && editing.index === index ? (
                    <EditRow
                      key={index ?? 'new'}
                      state={editing}
                      envNames={envNames}
                      busy={change.isPending}
                      onChange={(next) => setEditing({ ...editing, row: next, error: null })}
                      onSave={() => void save()}
                      onCancel={() => setEditing(null)}
                    />
                  ) : (
                    <tr key={index ?? 'new'} data-testid="test-data-row">
                      <td className="px-4 py-3 font-mono text-slate-900">{row.key}</td>
                      <td className="px-4 py-3 font-mono text-slate-700">
                        <ValueCell scope={scope} row={row} canReveal={project.role === 'ADMIN'} />
                      </td>
                      <td className="px-4 py-3 text-slate-700">{row.DataType}</td>
                      <td className="px-4 py-3 text-slate-700">
                        {row.environment === ALL_ENVIRONMENTS ? T.allEnvironments : row.environment}
                      </td>
                      <td className="px-4 py-2">
                        <div className="flex justify-end gap-1">
                          <IconButton
                            label={T.edit(row.key)}
                            icon={Pencil}
                            onClick={() => licence.guard(() => setEditing({ index, row: { ...row }, error: null }))}
                            disabled={editing !== null}
                          />
                          <IconButton
                            label={T.delete(row.key)}
                            icon={Trash2}
                            tone="danger"
                            onClick={() => licence.guard(() => setDeleting(index))}
                            disabled={editing !== null}
                          />
                        </div>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
          <footer className="flex flex-wrap items-center justify-end gap-4 border-t border-slate-200 px-4 py-2.5 text-sm text-slate-600">
            <label className="flex items-center gap-2">
              {T.pageSize}
              <select
                value={pageSize}
                onChange={(event) => {
                  setPageSize(Number(event.target.value));
                  setPage(0);
                }}
                className="focus-ring h-8 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-800"
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </label>
            <span aria-live="polite">
              {T.pageRange(shown.length === 0 ? 0 : page * pageSize + 1, Math.min(shown.length, (page + 1) * pageSize), shown.length)}
            </span>
            <div className="flex gap-1">
              <IconButton label={T.previousPage} icon={ChevronLeft} onClick={() => setPage(page - 1)} disabled={page === 0} />
              <IconButton label={T.nextPage} icon={ChevronRight} onClick={() => setPage(page + 1)} disabled={page >= pages - 1} />
            </div>
          </footer>
        </section>
      )}

      <Credentials projectId={project.id} />

      <ConfirmDeleteDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        what={T.rowNoun}
        name={deleting !== null ? (rows[deleting]?.key ?? '') : ''}
        onConfirm={async () => {
          await change.mutateAsync(rows.filter((_, i) => i !== deleting));
        }}
      />
    </div>
  );
}

/** A stored value: strings as they are, secrets masked, totp as the current code with its countdown. */
function ValueCell({ scope, row, canReveal }: { scope: WorkspaceScope; row: TestDataRow; canReveal: boolean }) {
  const totp = useTotpCode(scope, row.key, row.environment, row.DataType === 'totp');
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    if (!totp.data) return;
    const fetchedAt = Date.now();
    const tick = () => setSeconds(Math.max(0, totp.data.secondsLeft - Math.floor((Date.now() - fetchedAt) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [totp.data]);

  if (row.DataType === 'string') return <span className="break-all">{row.value}</span>;
  if (row.DataType === 'secret') return <SecretValue scope={scope} row={row} canReveal={canReveal} />;
  if (totp.isError) return <span className="text-red-700">{T.totpFailed}</span>;
  if (!totp.data) return <span className="text-slate-500">{T.totpLoading}</span>;
  return (
    <span className="flex items-center gap-2" data-testid="totp-code">
      <KeyRound aria-hidden="true" className="size-4 text-brand-600" />
      <span aria-label={T.totpCode(totp.data.code)} className="font-semibold tracking-widest text-slate-900">
        {totp.data.code}
      </span>
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600" aria-hidden="true">
        {T.totpSeconds(seconds ?? totp.data.secondsLeft)}
      </span>
    </span>
  );
}

/** A secret, masked; the project admin can reveal it (audited by the server) and hide it again. */
function SecretValue({ scope, row, canReveal }: { scope: WorkspaceScope; row: TestDataRow; canReveal: boolean }) {
  const reveal = useRevealSecret(scope);
  const [shown, setShown] = useState<string | null>(null);
  if (!canReveal) return <span aria-label={T.value}>{MASKED_SECRET}</span>;
  return (
    <span className="flex items-center gap-1.5">
      {shown === null ? (
        <span aria-label={T.value}>{MASKED_SECRET}</span>
      ) : (
        <span className="font-mono break-all text-slate-900" data-testid="revealed-secret">
          {shown}
        </span>
      )}
      <IconButton
        label={shown === null ? T.revealStoredSecret(row.key) : T.hideStoredSecret(row.key)}
        icon={shown === null ? Eye : EyeOff}
        disabled={reveal.isPending}
        onClick={() => {
          if (shown !== null) return setShown(null);
          reveal.mutate(
            { key: row.key, environment: row.environment },
            { onSuccess: setShown, onError: (error) => toast.error(`${T.revealFailed}: ${errorMessage(error)}`) },
          );
        }}
      />
    </span>
  );
}

function EditRow({
  state,
  envNames,
  busy,
  onChange,
  onSave,
  onCancel,
}: {
  state: EditState;
  envNames: string[];
  busy: boolean;
  onChange: (row: TestDataRow) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  const { row, error } = state;
  const [revealed, setRevealed] = useState(false);
  const masked = row.value === MASKED_SECRET;
  const hidden = row.DataType !== 'string' && !revealed;
  const input = 'focus-ring h-9 w-full rounded-lg border border-slate-300 bg-white px-2.5 text-sm';
  const envOptions = envNames.includes(row.environment) ? envNames : [...envNames, row.environment];
  return (
    <>
      <tr data-testid="test-data-edit-row" className="bg-brand-50/30">
        <td className="px-4 py-2">
          <input
            aria-label={T.key}
            value={row.key}
            onChange={(event) => onChange({ ...row, key: event.target.value })}
            className={`${input} font-mono`}
            autoFocus
          />
        </td>
        <td className="px-4 py-2">
          <div className="flex items-center gap-1">
            <input
              aria-label={T.value}
              type={hidden ? 'password' : 'text'}
              value={row.value}
              title={masked ? T.keepSecret : undefined}
              onChange={(event) => onChange({ ...row, value: event.target.value })}
              className={`${input} font-mono`}
            />
            {row.DataType !== 'string' && (
              <IconButton
                label={revealed ? T.hide : T.reveal}
                icon={revealed ? EyeOff : Eye}
                aria-pressed={revealed}
                disabledReason={masked ? T.revealStored : null}
                onClick={() => setRevealed(!revealed)}
              />
            )}
          </div>
        </td>
        <td className="px-4 py-2">
          <select
            aria-label={T.dataType}
            value={row.DataType}
            // A stored secret cannot change type without a new value (the server keeps it only for its own type).
            onChange={(event) => onChange({ ...row, DataType: TestDataType.parse(event.target.value), value: masked ? '' : row.value })}
            className={input}
          >
            {TestDataType.options.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </td>
        <td className="px-4 py-2">
          <select
            aria-label={T.environment}
            value={row.environment}
            onChange={(event) => onChange({ ...row, environment: event.target.value })}
            className={input}
          >
            {envOptions.map((env) => (
              <option key={env} value={env}>
                {env === ALL_ENVIRONMENTS ? T.allEnvironments : env}
              </option>
            ))}
          </select>
        </td>
        <td className="px-4 py-2">
          <div className="flex justify-end gap-1.5">
            <Button size="sm" variant="ghost" onClick={onCancel} disabled={busy}>
              {T.cancel}
            </Button>
            <Button size="sm" onClick={onSave} disabled={busy}>
              {busy ? T.saving : T.save}
            </Button>
          </div>
        </td>
      </tr>
      {error && (
        <tr>
          <td colSpan={5} className="px-4 pb-2">
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-1.5 text-sm text-red-800" data-testid="test-data-error">
              {error}
            </p>
          </td>
        </tr>
      )}
    </>
  );
}

/** User credentials (mail / authenticator users), edited on the add and edit/{index} screens. */
function Credentials({ projectId }: { projectId: string }) {
  const users = useMailUsers(projectId);
  const remove = useDeleteMailUser(projectId);
  const licence = useLicence();
  const [deleting, setDeleting] = useState<string | null>(null);
  return (
    <section aria-labelledby="credentials-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-4">
        <div className="min-w-0 flex-1">
          <h2 id="credentials-title" className="text-lg font-semibold text-slate-900">
            {T.credentialsTitle}
          </h2>
          <p className="text-sm text-slate-600">{T.credentialsIntro}</p>
        </div>
        <Link
          to="add"
          className="focus-ring inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50"
        >
          <UserRound aria-hidden="true" className="size-4" />
          {T.addCredential}
        </Link>
      </div>
      {users.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          {T.credentialsLoading}
        </p>
      ) : users.isError ? (
        <ErrorPanel title={Messages.getUserInfoFailed} detail={errorMessage(users.error)} onRetry={() => void users.refetch()} />
      ) : users.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white/60 p-6 text-center text-sm text-slate-600">
          {T.credentialsEmpty}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white" data-testid="credentials">
          {users.data.map((user, index) => (
            <li key={user.username} className="flex items-center gap-3 px-4 py-3 text-sm">
              <UserRound aria-hidden="true" className="size-4 text-slate-500" />
              <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{user.username}</span>
              <span className="font-mono text-slate-600">{user.password}</span>
              {user.hasSecretKey && <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-800">{T.secretKeySet}</span>}
              <Link
                to={`edit/${index}`}
                aria-label={`${T.editCredential}: ${user.username}`}
                className="focus-ring flex size-8 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100"
              >
                <Pencil aria-hidden="true" className="size-4" />
              </Link>
              <IconButton
                label={T.deleteCredential(user.username)}
                icon={Trash2}
                tone="danger"
                onClick={() => licence.guard(() => setDeleting(user.username))}
              />
            </li>
          ))}
        </ul>
      )}
      <ConfirmDeleteDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        what={T.credentialNoun}
        name={deleting ?? ''}
        failureMessage={() => Messages.deleteUserFailed}
        onConfirm={() => remove.mutateAsync(deleting ?? '')}
      />
    </section>
  );
}
