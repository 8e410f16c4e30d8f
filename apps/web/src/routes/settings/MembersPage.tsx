import { Messages, type Member, type SentInvitation } from '@rehearse/contract';
import { CircleAlert, LoaderCircle, MailCheck, Send, UserMinus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { CopyButton } from '../../components/CopyButton';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorPanel } from '../../components/ErrorPanel';
import { IconButton } from '../../components/IconButton';
import { useMe } from '../../features/auth/queries';
import { useLicence } from '../../features/licence/LicenceProvider';
import { useInvite, useMembers, useRemoveMember, useRoleCheck } from '../../features/members/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { truncate } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';
import { SectionHeading } from './SettingsLayout';

/** Spec 02 §9: member names are cut at 42 characters. */
const MEMBER_NAME_MAX = 42;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The addresses typed in the invite box: separated by commas, semicolons or whitespace. */
export function parseEmails(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);
}

/** The invite rules of spec 01 §5, in the order the server checks them. */
export function inviteProblem(emails: string[], myEmail: string | undefined, members: Member[] | undefined): string | null {
  if (emails.length === 0) return Messages.inviteNoEmails;
  if (!emails.every((email) => EMAIL.test(email))) return Messages.inviteInvalidEmail;
  if (myEmail && emails.includes(myEmail.toLowerCase())) return Messages.inviteSelf;
  if (new Set(emails).size !== emails.length) return Messages.inviteNotUnique;
  const taken = new Set((members ?? []).map((member) => member.user_email.toLowerCase()));
  if (emails.some((email) => taken.has(email))) return Messages.inviteAlreadyMember;
  return null;
}

/** Team members (spec 01 §2, §5, §6): the invite form and the members table. */
export function MembersPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${Strings.tabMembers} · ${project.name}`);
  const members = useMembers(project.id);

  return (
    <section aria-labelledby="members-title" className="flex flex-col gap-6">
      <SectionHeading id="members-title" title={Strings.membersTitle} intro={Strings.membersIntro} />
      <InviteForm />
      {members.isError ? (
        <ErrorPanel title={Strings.membersLoadFailed} detail={errorMessage(members.error)} onRetry={() => void members.refetch()} />
      ) : (
        <MembersTable />
      )}
    </section>
  );
}

function InviteForm() {
  const { project } = useCurrentProject();
  const me = useMe();
  const members = useMembers(project.id);
  const permission = useRoleCheck(project.id, 'sendInvitation');
  const invite = useInvite(project.id);
  const licence = useLicence();
  const inputId = useId();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<SentInvitation[]>([]);

  const noPermission = permission.data === false ? Messages.inviteNoPermission : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    licence.guard(() => {
      const emails = parseEmails(text);
      const found = inviteProblem(emails, me.data?.email, members.data);
      setProblem(found);
      if (found) return;
      invite.mutate(emails, {
        onSuccess: (invitations) => {
          setText('');
          setSent(invitations);
          toast.success(Strings.inviteSent(invitations.length));
        },
        onError: (error) => setProblem(errorMessage(error)),
      });
    });
  };

  const trial = problem === Messages.inviteTrial;

  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-xs">
      <form noValidate onSubmit={submit} className="flex flex-col gap-1.5" aria-label={Strings.inviteSend}>
        <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
          {Strings.inviteLabel}
        </label>
        <div className="flex items-start gap-3">
          <input
            id={inputId}
            name="emails"
            type="text"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            value={text}
            placeholder={Strings.invitePlaceholder}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(null);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${inputId}-note`}
            className={`h-10 min-w-0 flex-1 rounded-lg border bg-white px-3 text-sm shadow-xs outline-none placeholder:text-slate-500 focus:ring-2 ${
              problem
                ? 'border-red-400 focus:ring-red-200'
                : 'border-slate-300 hover:border-slate-400 focus:border-brand-500 focus:ring-brand-200'
            }`}
          />
          <Button type="submit" disabled={invite.isPending || permission.isPending} disabledReason={noPermission}>
            {invite.isPending ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <Send aria-hidden="true" className="size-4" />
            )}
            {invite.isPending ? Strings.inviteSending : Strings.inviteSend}
          </Button>
        </div>
        <div id={`${inputId}-note`}>
          {problem ? (
            <p role="alert" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-red-600">
              <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
              <span>{problem}</span>
              {trial && (
                <button
                  type="button"
                  onClick={licence.openContactSales}
                  className="focus-ring rounded font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800"
                >
                  {Strings.inviteTrialContact}
                </button>
              )}
            </p>
          ) : (
            <p className="text-xs text-slate-500">{Strings.inviteHint}</p>
          )}
        </div>
      </form>
      {sent.length > 0 && <InvitationLinks invitations={sent} />}
    </div>
  );
}

function InvitationLinks({ invitations }: { invitations: SentInvitation[] }) {
  return (
    <div className="rounded-xl border border-emerald-200 bg-emerald-50/60 p-4" data-testid="invitation-links">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-emerald-900">
        <MailCheck aria-hidden="true" className="size-4" />
        {Strings.inviteLinksTitle}
      </h3>
      <p className="mt-0.5 text-xs text-emerald-800">{Strings.inviteLinksIntro}</p>
      <ul className="mt-3 flex flex-col gap-2">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex items-center gap-3 rounded-lg bg-white px-3 py-2 shadow-xs">
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-medium text-slate-900">{invitation.email}</span>
              <span className="block truncate font-mono text-xs text-slate-600" data-testid="invitation-link">
                {invitation.link}
              </span>
            </span>
            <span className="shrink-0 text-xs text-slate-600">
              {invitation.mailed ? Strings.inviteLinkMailed : Strings.inviteLinkNotMailed}
            </span>
            <CopyButton text={invitation.link} label={`${Strings.copy} ${invitation.email}`} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function MembersTable() {
  const { project } = useCurrentProject();
  const me = useMe();
  const members = useMembers(project.id);
  const remove = useRemoveMember(project.id);
  const licence = useLicence();
  const [target, setTarget] = useState<Member | null>(null);
  const iAmAdmin = project.role === 'ADMIN';

  const columns: Column<Member>[] = [
    {
      id: 'name',
      header: Strings.memberName,
      cell: (member) =>
        member.status === 'pending' ? (
          <span className="text-slate-500 italic">{Strings.memberInvitedName}</span>
        ) : (
          <span className="font-medium text-slate-900" title={member.name}>
            {truncate(member.name, MEMBER_NAME_MAX)}
            {member.user_id === me.data?.userId && <span className="ml-1.5 font-normal text-slate-500">({Strings.memberYou})</span>}
          </span>
        ),
    },
    { id: 'email', header: Strings.memberEmail, cell: (member) => member.user_email },
    {
      id: 'role',
      header: Strings.memberRole,
      cell: (member) =>
        member.isAdmin ? (
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">{Strings.memberAdmin}</span>
        ) : member.status === 'active' ? (
          <span className="text-slate-600">{Strings.memberMember}</span>
        ) : (
          <span className="text-slate-400">—</span>
        ),
    },
    {
      id: 'status',
      header: Strings.memberStatus,
      cell: (member) =>
        member.status === 'active' ? (
          <span className="inline-flex items-center gap-1.5 text-emerald-700">
            <span aria-hidden="true" className="size-1.5 rounded-full bg-emerald-500" />
            {Strings.memberActive}
          </span>
        ) : (
          <span className="inline-flex items-center gap-1.5 text-amber-700">
            <span aria-hidden="true" className="size-1.5 rounded-full bg-amber-500" />
            {Strings.memberPending}
          </span>
        ),
    },
    {
      id: 'actions',
      header: Strings.memberActions,
      srOnlyHeader: true,
      className: 'w-16 text-right',
      // Spec 01 §6: only the admin removes, never themselves; the admin cannot be removed.
      cell: (member) =>
        iAmAdmin && !member.isAdmin && member.user_id !== me.data?.userId ? (
          <IconButton
            label={Strings.memberRemove(member.status === 'active' ? member.name : member.user_email)}
            icon={UserMinus}
            tone="danger"
            onClick={() => licence.guard(() => setTarget(member))}
          />
        ) : null,
    },
  ];

  return (
    <>
      <DataTable
        page={Strings.membersNoun}
        label={Strings.membersTitle}
        testId="members-table"
        columns={columns}
        rows={members.data}
        loading={members.isPending}
        rowKey={(member) => `${member.status}:${member.user_id}`}
        searchText={(member) => `${member.name} ${member.user_email}`}
        filter={{
          label: Strings.memberStatus,
          options: [
            { value: 'all', label: Strings.all, test: () => true },
            { value: 'active', label: Strings.memberActive, test: (member) => member.status === 'active' },
            { value: 'pending', label: Strings.memberPending, test: (member) => member.status === 'pending' },
          ],
        }}
      />
      <ConfirmDeleteDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        what={Strings.membersNoun}
        name={target?.name ?? ''}
        title={target?.status === 'pending' ? Strings.memberWithdrawTitle : Strings.memberRemoveTitle}
        question={
          target?.status === 'pending'
            ? Strings.memberWithdrawQuestion(target.user_email)
            : Strings.memberRemoveQuestion(truncate(target?.name ?? '', MEMBER_NAME_MAX))
        }
        confirmLabel={Strings.memberRemoveConfirm}
        busyLabel={Strings.memberRemoving}
        retryLabel={Strings.memberRetryRemove}
        onConfirm={async () => {
          if (!target) return;
          await remove.mutateAsync(target);
          toast.success(Strings.memberRemoved(target.status === 'active' ? target.name : target.user_email));
        }}
      />
    </>
  );
}
