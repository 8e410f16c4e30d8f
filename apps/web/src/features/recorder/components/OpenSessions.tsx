import { Loader2 } from 'lucide-react';
import { Button } from '../../../components/Button';
import { useProjects } from '../../projects/queries';
import { useEndSession, useMySessions } from '../queries';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { Strings } from '../../../lib/strings';

/**
 * Under "You have reached the maximum number of sessions": the caller's open sessions, in any
 * project, each with End, so the spec's "end ongoing sessions and try again" can be done here.
 */
export function OpenSessions() {
  const sessions = useMySessions(true);
  const projects = useProjects();
  const end = useEndSession();
  const projectName = (id: string) => projects.data?.find((project) => project.id === id)?.name ?? id;

  if (sessions.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Loader2 aria-hidden="true" className="size-4 animate-spin" />
        {Strings.recorderOpenSessionsLoading}
      </p>
    );
  }
  if (sessions.isError) return <p className="text-sm text-red-700">{errorMessage(sessions.error)}</p>;
  return (
    <section aria-labelledby="open-sessions" className="flex flex-col gap-2">
      <h3 id="open-sessions" className="text-sm font-semibold text-slate-800">
        {Strings.recorderOpenSessions}
      </h3>
      {sessions.data.length === 0 ? (
        <p role="status" className="text-sm text-slate-600">
          {Strings.recorderOpenSessionsNone}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-100 rounded-lg border border-slate-200" data-testid="open-sessions">
          {sessions.data.map((session) => {
            const name = projectName(session.projectId);
            return (
              <li key={session.connectionId} className="flex items-center gap-3 px-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-slate-900">{Strings.recorderOpenSession(name, session.env)}</p>
                  <p className="text-xs text-slate-600">{Strings.recorderOpenSessionStarted(formatDateTime(session.createdAt).time)}</p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={Strings.recorderEndThisSessionLabel(name, session.env)}
                  disabled={end.isPending && end.variables === session.connectionId}
                  onClick={() => end.mutate(session.connectionId)}
                >
                  {Strings.recorderEndThisSession}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {end.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(end.error)}
        </p>
      )}
    </section>
  );
}
