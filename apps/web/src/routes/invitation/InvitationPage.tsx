import { Messages } from '@rehearse/contract';
import { CircleAlert, LoaderCircle, MailOpen, MailX } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { Header } from '../../shell/Header';
import { useAcceptInvitation, useDeclineInvitation, useVerifyInvitation } from '../../features/invitations/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';

/**
 * The invitation page (`/invitation?id&invited_by&project`, spec 01 §4; 02 §8): the link is
 * verified, then accepted (the user joins and goes to the project's dashboard) or declined.
 * Signed-out visitors are sent to sign in first, with a callbackUrl back here.
 */
export function InvitationPage() {
  useDocumentTitle(Strings.invitationTitle);
  const [params] = useSearchParams();
  const link = { id: params.get('id'), invitedBy: params.get('invited_by'), project: params.get('project') };
  const verify = useVerifyInvitation(link);
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const navigate = useNavigate();
  const [declined, setDeclined] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const busy = accept.isPending || decline.isPending;
  const invitation = verify.data;

  const onAccept = () => {
    if (!invitation) return;
    setFailure(null);
    accept.mutate(invitation.id, {
      onSuccess: (projectId) => void navigate(`/${projectId}/dashboard`, { replace: true }),
      onError: (error) => setFailure(failureText(Messages.invitationAcceptFailed, error)),
    });
  };

  const onDecline = () => {
    if (!invitation) return;
    setFailure(null);
    decline.mutate(invitation.id, {
      onSuccess: () => setDeclined(true),
      onError: (error) => setFailure(failureText(Messages.invitationDeclineFailed, error)),
    });
  };

  let body: ReactNode;
  if (declined) {
    body = (
      <Card icon={<MailX aria-hidden="true" className="size-6" />} tone="neutral" title={Messages.invitationDeclined}>
        <HomeLink />
      </Card>
    );
  } else if (verify.isPending) {
    body = (
      <div role="status" className="flex items-center gap-3 text-slate-600">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin text-brand-600" />
        {Strings.invitationChecking}
      </div>
    );
  } else if (verify.isError) {
    body = (
      <Card icon={<CircleAlert aria-hidden="true" className="size-6" />} tone="error" title={Strings.invitationUnusable}>
        <p role="alert" className="text-sm text-slate-700" data-testid="invitation-error">
          {errorMessage(verify.error)}
        </p>
        <HomeLink />
      </Card>
    );
  } else {
    body = (
      <Card
        icon={<MailOpen aria-hidden="true" className="size-6" />}
        tone="brand"
        title={Strings.invitationText(verify.data.invited_by_name || verify.data.invited_by_email, verify.data.project_name)}
      >
        <p className="text-sm text-slate-600">{Strings.invitationFor(verify.data.email)}</p>
        {failure && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-700">
            {failure}
          </p>
        )}
        <div className="mt-2 flex gap-3">
          <Button variant="secondary" onClick={onDecline} disabled={busy} className="flex-1">
            {decline.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            {decline.isPending ? Strings.invitationDeclining : Strings.invitationDecline}
          </Button>
          <Button onClick={onAccept} disabled={busy} className="flex-1">
            {accept.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            {accept.isPending ? Strings.invitationAccepting : Strings.invitationAccept}
          </Button>
        </div>
      </Card>
    );
  }

  return (
    <div className="flex h-full flex-col">
      <Header />
      <main id="main" className="flex min-h-0 flex-1 flex-col items-center justify-center overflow-y-auto p-8">
        <h1 className="sr-only">{Strings.invitationTitle}</h1>
        {body}
      </main>
    </div>
  );
}

/** The spec's message for the failure, with the server's reason when it says something else. */
function failureText(message: string, error: unknown): string {
  const reason = errorMessage(error);
  return reason && reason !== message ? `${message}: ${reason}` : message;
}

function Card({
  icon,
  tone,
  title,
  children,
}: {
  icon: ReactNode;
  tone: 'brand' | 'error' | 'neutral';
  title: string;
  children: ReactNode;
}) {
  const tones = {
    brand: 'bg-brand-50 text-brand-600',
    error: 'bg-red-50 text-red-600',
    neutral: 'bg-slate-100 text-slate-600',
  } as const;
  return (
    <section
      aria-labelledby="invitation-card-title"
      data-testid="invitation-card"
      className="flex w-full max-w-md flex-col items-center gap-4 rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm"
    >
      <span className={`flex size-12 items-center justify-center rounded-2xl ${tones[tone]}`}>{icon}</span>
      <h2 id="invitation-card-title" className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function HomeLink() {
  return (
    <Link to="/" className="focus-ring mt-2 rounded text-sm font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800">
      {Strings.invitationGoHome}
    </Link>
  );
}
