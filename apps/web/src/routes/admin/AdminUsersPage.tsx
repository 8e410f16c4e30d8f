import { Messages, type AdminUser } from '@rehearse/contract';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { Checkbox } from '../../components/Checkbox';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { useMe } from '../../features/auth/queries';
import { useAdminUsers, useClearSignInBlocks, useResetTwoFactor, useUpdateUser } from '../../features/admin/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { DialogActions } from './DialogActions';
import { SectionHeading } from '../settings/SettingsLayout';
import { saveNotice } from '../../lib/notify';

/** Administration → Users: every account, its limits and rights; edit, disable or enable it. */
export function AdminUsersPage() {
  useDocumentTitle(`${Strings.adminTabUsers} · ${Strings.adminTitle}`);
  const users = useAdminUsers();
  const me = useMe();
  const update = useUpdateUser();
  const unblock = useClearSignInBlocks();
  const resetTwoFactor = useResetTwoFactor();
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [disabling, setDisabling] = useState<AdminUser | null>(null);

  const setDisabled = (user: AdminUser, disabled: boolean) =>
    update.mutate(
      { userId: user.userId, changes: { disabled } },
      {
        onSuccess: () => {
          setDisabling(null);
          toast.success(disabled ? Strings.adminUserDisabled(user.email) : Strings.adminUserEnabled(user.email));
        },
      },
    );

  const columns: Column<AdminUser>[] = [
    {
      id: 'user',
      header: Strings.adminUserColumn,
      cell: (user) => (
        <div className="flex max-w-60 min-w-0 xl:max-w-80 flex-col" title={user.email}>
          <span className="truncate font-medium text-slate-900">
            {user.name} {user.userId === me.data?.userId && <span className="font-normal text-slate-500">{Strings.adminYou}</span>}
          </span>
          <span className="truncate text-slate-600">{user.email}</span>
        </div>
      ),
    },
    { id: 'projects', header: Strings.adminUserProjects, cell: (user) => user.projects },
    { id: 'allowed', header: Strings.adminUserAllowed, cell: (user) => user.allowedProjectsCount },
    {
      id: 'delete',
      header: Strings.adminUserDelete,
      cell: (user) => (user.allowDeleteProjects ? Strings.adminYes : Strings.adminNo),
    },
    {
      id: 'account',
      header: Strings.adminUserRole,
      cell: (user) => (
        <div className="flex flex-col items-start gap-1">
          <span>{user.instanceAdmin ? Strings.adminRoleAdmin : Strings.adminRoleUser}</span>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
              user.disabled ? 'bg-red-50 text-red-800' : 'bg-emerald-50 text-emerald-800'
            }`}
          >
            {user.disabled ? Strings.adminStatusDisabled : Strings.adminStatusActive}
          </span>
          {user.twoFactor && (
            <StateWithAction
              label={Strings.adminStatusTwoFactor}
              tone="bg-sky-50 text-sky-900"
              testId="two-factor"
              action={Strings.adminResetTwoFactor}
              actionLabel={Strings.adminResetTwoFactorUser(user.email)}
              pending={resetTwoFactor.isPending}
              onAction={() =>
                resetTwoFactor.mutate(user.userId, { onSuccess: () => void toast.success(Strings.adminTwoFactorReset(user.email)) })
              }
            />
          )}
          {user.signInBlock && (
            <StateWithAction
              label={Strings.adminStatusSignInBlocked}
              tone="bg-amber-50 text-amber-900"
              title={Strings.adminSignInBlockDetail(user.signInBlock)}
              testId="sign-in-blocked"
              action={Strings.adminUnblock}
              actionLabel={Strings.adminUnblockUser(user.email)}
              pending={unblock.isPending}
              onAction={() => unblock.mutate(user.userId, { onSuccess: () => void toast.success(Strings.adminUserUnblocked(user.email)) })}
            />
          )}
        </div>
      ),
    },
    {
      id: 'actions',
      header: Strings.adminUserActions,
      srOnlyHeader: true,
      className: 'text-right',
      cell: (user) => (
        <div className="flex justify-end gap-2">
          <Button size="sm" variant="secondary" aria-label={Strings.adminEditUser(user.email)} onClick={() => setEditing(user)}>
            {Strings.adminEdit}
          </Button>
          {user.disabled ? (
            <Button size="sm" variant="secondary" aria-label={Strings.adminEnableUser(user.email)} onClick={() => setDisabled(user, false)}>
              {Strings.adminEnable}
            </Button>
          ) : (
            <Button
              size="sm"
              variant="secondary"
              aria-label={Strings.adminDisableUser(user.email)}
              disabledReason={user.userId === me.data?.userId ? Messages.adminCannotDisableSelf : null}
              onClick={() => setDisabling(user)}
            >
              {Strings.adminDisable}
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="admin-users-title" className="flex flex-col gap-5">
      <SectionHeading id="admin-users-title" title={Strings.adminUsersTitle} intro={Strings.adminUsersIntro} />
      {users.isError ? (
        <ErrorPanel title={Strings.adminLoadFailed} detail={errorMessage(users.error)} onRetry={() => void users.refetch()} />
      ) : (
        <DataTable
          page={Strings.adminUsersPage}
          label={Strings.adminUsersTitle}
          columns={columns}
          rows={users.data}
          rowKey={(user) => user.userId}
          searchText={(user) => `${user.name} ${user.email}`}
          loading={users.isPending}
          testId="admin-users"
        />
      )}
      {editing && (
        <EditUserDialog key={editing.userId} user={editing} self={editing.userId === me.data?.userId} onClose={() => setEditing(null)} />
      )}
      <Modal
        open={disabling !== null}
        onOpenChange={(open) => !open && setDisabling(null)}
        title={Strings.adminDisableTitle}
        description={disabling ? Strings.adminDisableText(disabling.email) : ''}
        alert
        testId="admin-disable-dialog"
        footer={
          <>
            <Button variant="secondary" onClick={() => setDisabling(null)}>
              {Strings.adminCancel}
            </Button>
            <Button variant="danger" disabled={update.isPending} onClick={() => disabling && setDisabled(disabling, true)}>
              {Strings.adminDisableConfirm}
            </Button>
          </>
        }
      />
    </section>
  );
}

/** A state of an account (a small badge) with the one action that undoes it beside it. */
function StateWithAction(props: {
  label: string;
  tone: string;
  title?: string;
  testId: string;
  action: string;
  actionLabel: string;
  pending: boolean;
  onAction: () => void;
}) {
  return (
    <span className="flex flex-wrap items-center gap-1">
      <span
        className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${props.tone}`}
        title={props.title}
        data-testid={props.testId}
      >
        {props.label}
      </span>
      <Button
        size="sm"
        variant="ghost"
        className="h-6 px-2"
        aria-label={props.actionLabel}
        disabled={props.pending}
        onClick={props.onAction}
      >
        {props.action}
      </Button>
    </span>
  );
}

const ALLOWED_PATTERN = /^\d{1,5}$/;

function EditUserDialog({ user, self, onClose }: { user: AdminUser; self: boolean; onClose: () => void }) {
  const update = useUpdateUser();
  const [allowed, setAllowed] = useState(String(user.allowedProjectsCount));
  const [mayDelete, setMayDelete] = useState(user.allowDeleteProjects);
  const [admin, setAdmin] = useState(user.instanceAdmin);
  const allowedOk = ALLOWED_PATTERN.test(allowed.trim()) && Number(allowed) <= 10_000;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!allowedOk || update.isPending) return;
    update.mutate(
      {
        userId: user.userId,
        changes: {
          allowedProjectsCount: Number(allowed.trim()),
          allowDeleteProjects: mayDelete,
          // Sent only when changed: an administrator never sends their own right away by saving.
          ...(admin !== user.instanceAdmin ? { instanceAdmin: admin } : {}),
        },
      },
      {
        onSuccess: () => {
          saveNotice.success(Strings.adminUserSaved);
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={Strings.adminUserDialogTitle(user.email)}
      description={Strings.adminUserDialogText}
      testId="admin-user-dialog"
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-5">
        <TextField
          label={Strings.adminAllowedLabel}
          inputMode="numeric"
          value={allowed}
          onChange={(event) => setAllowed(event.target.value)}
          error={allowedOk ? null : Messages.adminAllowedProjects}
          hint={Strings.adminAllowedHint}
        />
        <label className="flex items-center gap-3 text-sm text-slate-800">
          <Checkbox checked={mayDelete} onChange={(event) => setMayDelete(event.target.checked)} />
          {Strings.adminDeleteLabel}
        </label>
        <label className="flex items-center gap-3 text-sm text-slate-800">
          <Checkbox checked={admin} disabled={self} onChange={(event) => setAdmin(event.target.checked)} />
          {Strings.adminAdminLabel}
        </label>
        <DialogActions onCancel={onClose} submitLabel={Strings.adminSave} pending={update.isPending} disabled={!allowedOk} />
      </form>
    </Modal>
  );
}
