import { Messages } from '@rehearse/contract';
import { KeyRound } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { Strings } from '../lib/strings';

/**
 * Spec 02 §8, missing access key: the feature logs 'No Access Key found' and asks for a token,
 * with a link to the page that generates one (settings/new-access-token).
 */
export function AccessTokenRequired({ projectId }: { projectId: string }) {
  useEffect(() => {
    console.info(Messages.noAccessKeyFound);
  }, []);
  return (
    <div
      role="alert"
      data-testid="access-token-required"
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <KeyRound aria-hidden="true" className="size-4 shrink-0" />
      <span className="min-w-0 flex-1">{Messages.accessTokenRequired}</span>
      <Link
        to={`/${projectId}/settings/new-access-token`}
        className="focus-ring shrink-0 rounded font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700"
      >
        {Strings.tokenGenerate}
      </Link>
    </div>
  );
}
