import { SignupPolicy, type AdminActivity } from '@rehearse/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useAdminActivity } from '../../features/admin/queries';
import { signupPolicyText } from '../../features/admin/signup-policy';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { SectionHeading } from '../settings/SettingsLayout';

const actionLabel = (action: string) => Strings.adminActivityActions[action] ?? action;

/** A detail value as a person reads it: text as is, a sign-up policy in the Sign-up tab's words, anything else as compact JSON. */
function detailText(action: string, key: string, value: unknown): string {
  // A settings change names a cleared setting with null: its environment variable's value is in force again.
  if (action === 'settings.update' && value === null) return Strings.adminActivityEnvironmentValue;
  if (action === 'settings.update' && key === 'signup') {
    const policy = SignupPolicy.safeParse(value);
    if (policy.success) return signupPolicyText(policy.data);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const columns: Column<AdminActivity>[] = [
  {
    id: 'when',
    header: Strings.adminActivityWhen,
    className: 'whitespace-nowrap',
    cell: (entry) => {
      const { date, time } = formatDateTime(entry.at);
      return (
        <div className="flex flex-col">
          <span className="text-slate-900">{date}</span>
          <span className="text-slate-600">{time}</span>
        </div>
      );
    },
  },
  {
    id: 'who',
    header: Strings.adminActivityWho,
    cell: (entry) => <span className="block max-w-40 truncate">{entry.actor ?? Strings.adminActivityServer}</span>,
  },
  {
    id: 'what',
    header: Strings.adminActivityWhat,
    // What was done, to what, and with which values, in one cell: the table fits 1024 px without scrolling.
    cell: (entry) => {
      const details = Object.entries(entry.details)
        .map(([key, value]) => `${key}: ${detailText(entry.action, key, value)}`)
        .join(' · ');
      return (
        <div className="flex max-w-md min-w-0 flex-col">
          <span className="font-medium text-slate-900">{actionLabel(entry.action)}</span>
          <span className="truncate text-slate-700" title={entry.target}>
            {entry.target}
          </span>
          {details && (
            <span className="truncate text-xs text-slate-500" title={details}>
              {details}
            </span>
          )}
        </div>
      );
    },
  },
];

/**
 * Administration → Activity: the audit trail of instance administration (every change from this
 * screen or `npm run admin`, and every secret an admin revealed), newest first, searchable and
 * filtered by what was done.
 */
export function AdminActivityPage() {
  useDocumentTitle(`${Strings.adminTabActivity} · ${Strings.adminTitle}`);
  const activity = useAdminActivity();
  const actions = [...new Set((activity.data ?? []).map((entry) => entry.action))].sort();
  return (
    <section aria-labelledby="admin-activity-title" className="flex flex-col gap-5">
      <SectionHeading id="admin-activity-title" title={Strings.adminActivityTitle} intro={Strings.adminActivityIntro} />
      {activity.isError ? (
        <ErrorPanel title={Strings.adminLoadFailed} detail={errorMessage(activity.error)} onRetry={() => void activity.refetch()} />
      ) : (
        <DataTable
          page={Strings.adminActivityPage}
          label={Strings.adminActivityTitle}
          columns={columns}
          rows={activity.data}
          rowKey={(entry) => String(entry.id)}
          searchText={(entry) => `${entry.actor ?? ''} ${actionLabel(entry.action)} ${entry.target} ${JSON.stringify(entry.details)}`}
          filter={{
            label: Strings.adminActivityWhat,
            options: [
              { value: 'all', label: Strings.adminActivityFilterAll, test: () => true },
              ...actions.map((action) => ({
                value: action,
                label: actionLabel(action),
                test: (entry: AdminActivity) => entry.action === action,
              })),
            ],
          }}
          loading={activity.isPending}
          testId="admin-activity"
        />
      )}
    </section>
  );
}
