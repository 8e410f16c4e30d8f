import { Clapperboard } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { Header } from '../../components/Header';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { Strings } from '../../lib/strings';

/** The operations the desktop recorder understands (spec 02 §2). */
export const RECORDER_OPERATIONS = ['recorder', 'ai_learn', 'execute', 'apitest', 'open_vscode'] as const;
type Operation = (typeof RECORDER_OPERATIONS)[number];

/** The spec's open-recorder parameters, passed through to the deep link in this order. */
const PARAMS = ['project_id', 'env_name', 'git_branch', 'uuid', 'newUser', 'feature_file', 'scenario_name', 'steps_to_learn', 'continue', 'fromMainApp', 'step_index', 'stepSource', 'env'];

const AUTO_CLOSE_SECONDS = 10;

/** `rehearse://<operation>?…` with the spec's parameters, for the desktop app. */
export function deepLink(operation: string, search: URLSearchParams): string {
  const params = new URLSearchParams();
  for (const key of PARAMS) {
    const value = search.get(key);
    if (value !== null) params.set(key, value);
  }
  params.set('server', window.location.origin);
  return `rehearse://${operation}?${params.toString()}`;
}

const quote = (value: string) => `"${value.replace(/(["\\$`])/g, '\\$1')}"`;

/** The terminal command that does what the deep link asks, with the token left to the environment. */
export function cliCommand(operation: Operation, search: URLSearchParams): string {
  const project = search.get('project_id') ?? '<project id>';
  const env = (search.get('env_name') ?? search.get('env') ?? 'default').replace(/\.json$/, '');
  const branch = search.get('git_branch');
  const feature = search.get('feature_file')?.replace(/\.feature$/, '');
  const scenario = search.get('scenario_name');
  const common = `--server ${window.location.origin} --token $REHEARSE_TOKEN --project ${project}${branch && branch !== 'main' ? ` --branch ${quote(branch)}` : ''}`;
  const folder = `rehearse-${project.slice(0, 8)}`;
  switch (operation) {
    case 'recorder':
    case 'ai_learn':
      return `npx rehearse record ${common} --env ${quote(env)}${feature ? ` --feature ${quote(feature)}` : ''}${scenario ? ` --scenario ${quote(scenario)}` : ''}`;
    case 'execute':
    case 'apitest':
      return `npx rehearse pull ${common} --dir ${folder} && cd ${folder} && npx rehearse run --env environments/${env}.json --headed${scenario ? ` --scenario ${quote(scenario)}` : ''} --token $REHEARSE_TOKEN`;
    case 'open_vscode':
      return `npx rehearse pull ${common} --dir ${folder} && code ${folder}`;
  }
}

/**
 * `/open-recorder/{operation}` (spec 01 §2): hands the operation to the desktop recorder through
 * the `rehearse://` deep link (clicked on load), shows the equivalent CLI command, and closes
 * itself after 10 seconds unless cancelled.
 */
export function OpenRecorderPage() {
  useDocumentTitle(Strings.openRecorderTitle);
  const { operation = '' } = useParams();
  const [search] = useSearchParams();
  const known = (RECORDER_OPERATIONS as readonly string[]).includes(operation);
  const link = useMemo(() => deepLink(operation, search), [operation, search]);
  const command = known ? cliCommand(operation as Operation, search) : '';
  const continueRef = useRef<HTMLAnchorElement>(null);
  const [secondsLeft, setSecondsLeft] = useState<number | null>(known ? AUTO_CLOSE_SECONDS : null);

  useEffect(() => {
    if (known) continueRef.current?.click();
  }, [known]);

  useEffect(() => {
    if (secondsLeft === null) return;
    if (secondsLeft <= 0) {
      window.close();
      return;
    }
    const timer = setTimeout(() => setSecondsLeft(secondsLeft - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const projectId = search.get('project_id');

  return (
    <div className="flex h-full flex-col">
      <Header />
      <main id="main" className="flex min-h-0 flex-1 items-center justify-center overflow-y-auto p-8">
        <section className="flex w-full max-w-2xl flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <div className="flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              <Clapperboard aria-hidden="true" className="size-5" />
            </span>
            <div>
              <h1 className="text-lg font-semibold text-slate-900">{Strings.openRecorderTitle}</h1>
              <p role="status" className="text-sm text-slate-600">
                {known ? `${Strings.openRecorderLoading} · ${operation}` : `${Strings.openRecorderError}: ${Strings.openRecorderUnknown}${operation}`}
              </p>
            </div>
          </div>
          {known && (
            <>
              <div className="flex flex-wrap gap-3">
                <a ref={continueRef} href={link} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-ring">
                  {Strings.openRecorderContinue}
                </a>
                <a href="#install" className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus-ring">
                  {Strings.openRecorderDownload}
                </a>
              </div>
              <div className="flex flex-col gap-2">
                <h2 className="text-sm font-semibold text-slate-900">{Strings.openRecorderCli}</h2>
                <div className="flex items-start gap-2">
                  <code data-testid="cli-command" className="min-w-0 flex-1 break-all rounded-lg bg-slate-900 p-3 font-mono text-xs text-slate-100">{command}</code>
                  <CopyButton text={command} />
                </div>
                <p className="text-xs text-slate-600">
                  {Strings.openRecorderCliHint}{' '}
                  {projectId && (
                    <Link className="text-brand-700 underline" to={`/${projectId}/settings/access-tokens`}>
                      {Strings.openRecorderTokens}
                    </Link>
                  )}
                </p>
              </div>
              <p id="install" className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{Strings.openRecorderInstall(window.location.origin)}</p>
              {secondsLeft !== null && (
                <div className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
                  <span>{Strings.openRecorderClosing.replace('{n}', String(secondsLeft))}</span>
                  <Button size="sm" variant="ghost" onClick={() => setSecondsLeft(null)}>
                    {Strings.cancel}
                  </Button>
                </div>
              )}
            </>
          )}
        </section>
      </main>
    </div>
  );
}
