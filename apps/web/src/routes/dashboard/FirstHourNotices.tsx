import { Compass, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { useInstanceSettings } from '../../features/admin/queries';
import { signupPolicyText } from '../../features/admin/signup-policy';
import { useMe } from '../../features/auth/queries';
import { StorageKeys } from '../../lib/storage-keys';
import { Strings } from '../../lib/strings';

function stored(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

/**
 * What a newcomer should know on the dashboard, until it is done: the guided tour that waits on
 * Features (after sign-up or creating a first project), and, for the instance administrator, who
 * may sign up on this server and where that is set.
 */
export function FirstHourNotices({ projectId }: { projectId: string }) {
  const [tourPending] = useState(() => stored(StorageKeys.tourPending));
  return (
    <>
      {tourPending && (
        <div
          role="note"
          data-testid="tour-waiting"
          className="flex items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900"
        >
          <Compass aria-hidden="true" className="size-5 shrink-0 text-brand-600" />
          <p className="min-w-0 flex-1">{Strings.dashboardTourWaiting}</p>
          <Link
            to={`/${projectId}/features?newUser=1`}
            className="focus-ring inline-flex h-9 shrink-0 items-center rounded-lg bg-brand-600 px-3 text-sm font-semibold text-white hover:bg-brand-700"
          >
            {Strings.dashboardTourStart}
          </Link>
        </div>
      )}
      <SignupPolicyNotice />
    </>
  );
}

/** The instance administrator's note on the sign-up policy in force, until they say they read it. */
function SignupPolicyNotice() {
  const me = useMe();
  const admin = me.data?.instanceAdmin === true;
  const [seen, setSeen] = useState(() => stored(StorageKeys.signupNoticeSeen));
  const settings = useInstanceSettings(admin && !seen);
  if (!admin || seen || !settings.data) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(StorageKeys.signupNoticeSeen, '1');
    } catch {
      // Private mode: the note shows again next time, which does no harm.
    }
    setSeen(true);
  };
  return (
    <div
      role="note"
      data-testid="signup-notice"
      className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700 shadow-xs"
    >
      <ShieldCheck aria-hidden="true" className="size-5 shrink-0 text-slate-500" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-slate-900">{Strings.dashboardSignupNotice(signupPolicyText(settings.data.settings.signup))}</p>
        <p className="text-slate-600">{Strings.dashboardSignupNoticeDetail}</p>
      </div>
      <Link
        to="/admin/sign-up"
        className="focus-ring inline-flex h-9 shrink-0 items-center rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50"
      >
        {Strings.dashboardSignupNoticeOpen}
      </Link>
      <Button variant="ghost" size="sm" onClick={dismiss}>
        {Strings.dashboardSignupNoticeDismiss}
      </Button>
    </div>
  );
}
