import { Clock3 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Messages } from '@rehearse/contract';
import { session, useSession } from '../lib/session';
import { Strings } from '../lib/strings';
import { Button } from '../components/Button';

/**
 * Opens on any 401 of a signed-in call (spec 01 §4). It cannot be dismissed: Reload forgets the
 * dead token and reloads, which lands on the sign-in page with a callbackUrl back here.
 */
export function SessionExpiredDialog() {
  const { expired } = useSession();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (expired && !dialog.open) dialog.showModal();
    if (!expired && dialog.open) dialog.close();
  }, [expired]);

  const reload = () => {
    session.discardExpiredToken();
    window.location.reload();
  };

  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-labelledby="session-expired-title"
      aria-describedby="session-expired-text"
      // Escape must not leave the user on a page whose every call now fails.
      onCancel={(event) => event.preventDefault()}
      onClose={() => {
        if (session.getState().expired) ref.current?.showModal();
      }}
      className="m-auto w-[420px] max-w-[calc(100vw-2rem)] rounded-2xl bg-white p-0 shadow-2xl"
    >
      {expired && (
        <div className="flex flex-col items-center gap-4 px-8 pt-8 pb-7 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-600">
            <Clock3 aria-hidden="true" className="size-6" />
          </span>
          <h2 id="session-expired-title" className="text-lg font-semibold text-slate-900">
            {Strings.sessionExpiredTitle}
          </h2>
          <p id="session-expired-text" className="text-sm text-slate-600">
            {Messages.sessionExpired}
          </p>
          <Button autoFocus onClick={reload} className="mt-2 w-full">
            {Strings.sessionExpiredReload}
          </Button>
        </div>
      )}
    </dialog>
  );
}
