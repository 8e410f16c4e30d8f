import { RecorderOperation, type CallResponse, type recorderCalls } from '@rehearse/contract';
import { CircleAlert, Clapperboard, Download, ExternalLink } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { Header } from '../../shell/Header';
import { ShellText } from '../../components/ShellText';
import { Spinner } from '../../components/Spinner';
import { currentPlatform, launchChoice } from '../../features/recorder/platform';
import { reportDownload, useAppDownload, useLocalLaunch, type LocalLaunchBody } from '../../features/recorder/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';

type LaunchAnswer = CallResponse<typeof recorderCalls.localLaunch>;

const AUTO_CLOSE_SECONDS = 10;
/**
 * How soon after the link was clicked losing focus (or being hidden) counts as a handler having
 * taken it. Later than that, the user went elsewhere themselves.
 */
const HANDOFF_WINDOW_MS = 3000;
/** The operations `rehearse open` (the registered link handler) carries out; the rest run from the command. */
const LINK_OPERATIONS: readonly RecorderOperation[] = ['recorder', 'ai_learn'];

/** The launch the page's parameters ask for (spec 01 §2 names), or null without a project. */
function launchRequest(operation: RecorderOperation, search: URLSearchParams): LocalLaunchBody | null {
  const projectId = search.get('project_id');
  if (!projectId) return null;
  const env = search.get('env_name') || search.get('env');
  const branch = search.get('git_branch');
  const feature = search.get('feature_file')?.replace(/\.feature$/, '');
  const scenario = search.get('scenario_name');
  return {
    projectId,
    operation,
    ...(env ? { env } : {}),
    ...(branch ? { branch } : {}),
    ...(feature ? { featureName: feature } : {}),
    ...(scenario ? { scenarioName: scenario } : {}),
  };
}

/**
 * `/open-recorder/{operation}` (spec 01 §2): asks the server for a launch (a key made for it, the
 * terminal command and the `rehearse://` link carrying it), clicks Continue in the app once the
 * answer is in (for the operations the link handler carries out), and shows the command to copy.
 * The spec's 10-second auto-close only starts when a handler evidently took the link: otherwise
 * this tab holds the only copy of the command.
 */
export function OpenRecorderPage() {
  useDocumentTitle(Strings.openRecorderTitle);
  const { operation = '' } = useParams();
  const [search] = useSearchParams();
  const parsed = RecorderOperation.safeParse(operation);
  const known = parsed.success ? parsed.data : null;
  const request = useMemo(() => (known ? launchRequest(known, search) : null), [known, search]);
  const launch = useLocalLaunch();
  const { mutate } = launch;

  // One key per page load: StrictMode runs effects twice, and a re-render must not launch again.
  const requested = useRef<string | null>(null);
  useEffect(() => {
    if (!request) return;
    const key = JSON.stringify(request);
    if (requested.current === key) return;
    requested.current = key;
    mutate(request);
  }, [request, mutate]);

  let status: string;
  if (!known) status = `${Strings.openRecorderError}: ${Strings.openRecorderUnknown}${operation}`;
  else if (!request || launch.isError) status = Strings.openRecorderError;
  else if (launch.data) status = Strings.openRecorderReady(known, launch.data.env);
  else status = Strings.openRecorderLoading;

  return (
    <div className="flex h-full flex-col">
      <Header />
      <main id="main" className="flex min-h-0 flex-1 overflow-y-auto p-8">
        {/* m-auto, not justify-center on main: a card taller than the window still scrolls to its top. */}
        <section className="m-auto flex w-full max-w-3xl flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <div className="flex items-center gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              <Clapperboard aria-hidden="true" className="size-5" />
            </span>
            <div className="min-w-0">
              <h1 className="text-lg font-semibold text-slate-900">{Strings.openRecorderTitle}</h1>
              <p role="status" className="text-sm text-slate-600">
                {status}
              </p>
            </div>
          </div>
          {known && !request && <Problem message={Strings.openRecorderNoProject} />}
          {request && !launch.data && !launch.isError && (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner />
              {Strings.openRecorderPreparing}
            </p>
          )}
          {request && launch.isError && <Problem message={errorMessage(launch.error)} onRetry={() => mutate(request)} />}
          {known && request && launch.data && <Launch operation={known} projectId={request.projectId} answer={launch.data} />}
        </section>
      </main>
    </div>
  );
}

function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
      <p className="min-w-0 flex-1">{message}</p>
      {onRetry && (
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {Strings.openRecorderRetry}
        </Button>
      )}
    </div>
  );
}

/** A shell command in a block that wraps (nothing is ever cut off), with its Copy button. */
function CommandBlock({ text, testId }: { text: string; testId: string }) {
  return (
    <div className="flex items-start gap-2">
      <code
        data-testid={testId}
        className="block min-w-0 flex-1 rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-slate-100 select-all"
      >
        <ShellText text={text} />
      </code>
      <CopyButton text={text} />
    </div>
  );
}

/** The answered launch: the link (clicked once), the downloads, the command, the handler setup and the countdown. */
function Launch({ operation, projectId, answer }: { operation: RecorderOperation; projectId: string; answer: LaunchAnswer }) {
  const platform = useMemo(currentPlatform, []);
  const download = useAppDownload(platform);
  // Spec 01 §4: the platform decides between download and deep link.
  const choice = launchChoice(platform);
  const continueRef = useRef<HTMLAnchorElement>(null);
  const clickedAt = useRef<number | null>(null);
  const cancelled = useRef(false);
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);

  // The link handler (`rehearse open`) only records; the other operations run from the command,
  // so their link would only bring up a prompt and an error.
  const linkable = LINK_OPERATIONS.includes(operation);

  // Clicked once per answer (StrictMode runs effects twice; a retry brings a new answer), and only
  // where a handler can exist: elsewhere the link would only bring up an error.
  const clickedFor = useRef<LaunchAnswer | null>(null);
  useEffect(() => {
    if (clickedFor.current === answer || choice !== 'deep-link') return;
    clickedFor.current = answer;
    continueRef.current?.click();
  }, [answer, choice]);

  // A handler that takes the link takes the focus (or hides the tab) at once; only then may the
  // tab close itself. Without a handler nothing happens and the command here is what is left.
  useEffect(() => {
    const taken = () => {
      const at = clickedAt.current;
      if (at === null || cancelled.current) return;
      clickedAt.current = null;
      if (Date.now() - at <= HANDOFF_WINDOW_MS) setSecondsLeft((left) => left ?? AUTO_CLOSE_SECONDS);
    };
    const hidden = () => {
      if (document.visibilityState === 'hidden') taken();
    };
    window.addEventListener('blur', taken);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('blur', taken);
      document.removeEventListener('visibilitychange', hidden);
    };
  }, []);

  useEffect(() => {
    if (secondsLeft === null) return;
    if (secondsLeft <= 0) {
      window.close();
      return;
    }
    const timer = setTimeout(() => setSecondsLeft(secondsLeft - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const expires = formatDateTime(answer.expiresAt);

  return (
    <>
      <div className="flex flex-wrap gap-3">
        {linkable && (
          <a
            ref={continueRef}
            href={answer.deepLink}
            onClick={() => {
              clickedAt.current = Date.now();
            }}
            className="focus-ring inline-flex h-10 items-center gap-2 rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
          >
            <ExternalLink aria-hidden="true" className="size-4" />
            {Strings.openRecorderContinue}
          </a>
        )}
        <a
          href={download.url}
          download
          data-testid="download-app"
          onClick={() => reportDownload(projectId)}
          className="focus-ring inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
        >
          <Download aria-hidden="true" className="size-4" />
          {Strings.openRecorderDownload}
        </a>
        {download.failed && (
          <p role="status" className="self-center text-xs text-slate-600">
            {Strings.openRecorderLatestReleaseFailed}
          </p>
        )}
      </div>
      {choice === 'download' && <p className="text-sm text-slate-700">{Strings.openRecorderNoHandlerHere}</p>}
      {secondsLeft !== null && (
        <div className="flex items-center justify-between gap-3 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <span>{Strings.openRecorderClosing.replace('{n}', String(secondsLeft))}</span>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              cancelled.current = true;
              setSecondsLeft(null);
            }}
          >
            {Strings.cancel}
          </Button>
        </div>
      )}
      <div className="flex flex-col gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{Strings.openRecorderCli}</h2>
        <CommandBlock text={answer.command} testId="launch-command" />
        <p className="text-xs leading-relaxed text-slate-600">
          {Strings.openRecorderKeyNote(expires.time, expires.date)} {Strings.openRecorderKeyListed(answer.keyName)}{' '}
          <Link className="text-brand-700 underline" to={`/${projectId}/settings/access-tokens`}>
            {Strings.openRecorderTokens}
          </Link>
          .
        </p>
      </div>
      {answer.setupCommand && linkable && (
        <div className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold text-slate-900">{Strings.openRecorderSetup}</h2>
          <p className="text-xs leading-relaxed text-slate-600" data-testid="setup-note">
            {Strings.openRecorderSetupFor(platform.os)}
          </p>
          <CommandBlock text={answer.setupCommand} testId="setup-command" />
        </div>
      )}
      <p id="install" className="rounded-lg bg-slate-50 p-3 text-sm leading-relaxed text-slate-700">
        {Strings.openRecorderInstall}{' '}
        <code className="rounded bg-white px-1 font-mono text-xs text-slate-800">
          <ShellText text={answer.installCommand} />
        </code>
      </p>
    </>
  );
}
