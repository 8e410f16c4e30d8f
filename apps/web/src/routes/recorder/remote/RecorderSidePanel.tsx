import {
  describeRecordedStep,
  describeRecordingCheck,
  Messages,
  recorderCalls,
  workspaceCalls,
  type RecordedCommand,
  type RecorderAssertion,
  type RecorderSessionInfo,
  type RecordingCheck,
} from '@rehearse/contract';
import { CheckCircle2, Circle, CircleAlert, ExternalLink, Eye, Send, Undo2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/Button';
import { Spinner } from '../../../components/Spinner';
import { api, errorMessage } from '../../../lib/api';
import { Strings } from '../../../lib/strings';

/** Beside the display: the recorded steps, Add assertion, Undo, and Publish with the feature and scenario names. */
export function RecorderSidePanel({
  projectId,
  info,
  commands,
  enabled,
  assertHint,
  onAssert,
  onUndo,
  upToDate,
  onPublished,
  check,
}: {
  projectId: string;
  info: RecorderSessionInfo | null;
  commands: RecordedCommand[];
  enabled: boolean;
  assertHint: boolean;
  onAssert: (type: RecorderAssertion, text?: string) => void;
  onUndo: () => void;
  /** Everything recorded is what was last published: Publish becomes a link to that scenario. */
  upToDate: boolean;
  /** Called with the commit of each successful Publish (its self-check carries it). */
  onPublished: (commit: string) => void;
  /** The self-check of the last Publish: `checking` until the server says how the replay went. */
  check: RecordingCheck | null;
}) {
  const [search] = useSearchParams();
  const [featureName, setFeatureName] = useState(search.get('feature_file')?.replace(/\.feature$/, '') ?? '');
  const [scenarioName, setScenarioName] = useState(search.get('scenario_name') ?? '');
  const [features, setFeatures] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [absentText, setAbsentText] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const [publishedAs, setPublishedAs] = useState<{ featureName: string; scenarioName: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  // Keep the newest step in view as steps arrive.
  useEffect(() => {
    listRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [commands.length]);

  useEffect(() => {
    if (!projectId) return;
    api
      .call(workspaceCalls.getFeatureList, { body: { projectId } })
      .then((answer) => setFeatures(answer.features.map((f) => f.featureName)))
      .catch(() => setFeatures([]));
  }, [projectId]);

  const publish = async (event: FormEvent) => {
    event.preventDefault();
    if (!info) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.call(recorderCalls.publish, {
        body: { projectId, connectionId: info.connectionId, featureName, scenarioName },
      });
      setResult(
        `${Strings.recorderPublished}: ${answer.featureName} › ${answer.scenarioName}${answer.missingTestData.length ? `. ${Strings.recorderMissingData}${answer.missingTestData.join(', ')}` : ''}`,
      );
      setPublishedAs({ featureName: answer.featureName, scenarioName: answer.scenarioName });
      onPublished(answer.commit);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const scenarioHref = publishedAs
    ? `/${projectId}/features?feature=${encodeURIComponent(publishedAs.featureName)}&scenario=${encodeURIComponent(publishedAs.scenarioName)}`
    : null;

  return (
    <aside aria-label={Strings.recorderSteps} className="flex w-96 shrink-0 flex-col overflow-y-auto border-l border-slate-200 bg-white">
      {check && (
        // At the top, where it shows on any screen height: the user sees how the replay went before leaving.
        <div className="px-4 pt-4">
          <SelfCheck check={check} scenarioHref={scenarioHref} />
        </div>
      )}
      <h2 className="px-4 pt-4 text-sm font-semibold text-slate-900">{Strings.recorderSteps}</h2>
      <ol ref={listRef} className="min-h-28 flex-1 overflow-y-auto px-4 py-2 text-sm" data-testid="recorded-steps">
        {commands.length === 0 && <li className="text-slate-500">{Strings.recorderNoSteps}</li>}
        {commands.map((command, index) => (
          <li key={index} className="flex items-start gap-2 border-b border-slate-100 py-1.5 text-slate-800">
            {command.type.startsWith('verify') ? (
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
            ) : (
              <Circle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
            )}
            <span className="break-words">{describeRecordedStep(command)}</span>
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-2 border-t border-slate-200 p-4">
        <fieldset className="flex flex-col gap-1.5" disabled={!enabled}>
          <legend className="mb-1 flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600">
            <Eye aria-hidden="true" className="size-3.5" />
            {Strings.recorderAddAssertion}
          </legend>
          <div className="grid grid-cols-3 gap-1.5">
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyVisible')}>
              {Strings.recorderAssertVisible}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyText')}>
              {Strings.recorderAssertText}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyValue')}>
              {Strings.recorderAssertValue}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyChecked')}>
              {Strings.recorderAssertChecked}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyCount')}>
              {Strings.recorderAssertCount}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyItems')}>
              {Strings.recorderAssertItems}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyClass')}>
              {Strings.recorderAssertClass}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onAssert('verifyUrl')}>
              {Strings.recorderAssertUrl}
            </Button>
          </div>
          <div className="flex gap-1.5">
            <label htmlFor="recorder-absent" className="sr-only">
              {Strings.recorderAbsentText}
            </label>
            <input
              id="recorder-absent"
              value={absentText}
              onChange={(e) => setAbsentText(e.target.value)}
              placeholder={Strings.recorderAbsentText}
              maxLength={500}
              className="focus-ring min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
            />
            <Button
              size="sm"
              variant="secondary"
              disabled={absentText.trim() === ''}
              onClick={() => {
                onAssert('verifyNoText', absentText.trim());
                setAbsentText('');
              }}
            >
              {Strings.recorderAssertNotVisible}
            </Button>
          </div>
          {assertHint && (
            <p className="text-xs text-brand-700" role="status">
              {Strings.recorderAssertHint}
            </p>
          )}
        </fieldset>
        <Button variant="secondary" size="sm" onClick={onUndo} disabled={!enabled || commands.length <= 1}>
          <Undo2 aria-hidden="true" className="size-3.5" />
          {Strings.recorderUndo}
        </Button>
      </div>
      <form onSubmit={(e) => void publish(e)} className="flex flex-col gap-2 border-t border-slate-200 p-4">
        <label className="text-xs font-medium text-slate-700" htmlFor="recorder-feature">
          {Strings.recorderFeatureName}
        </label>
        <input
          id="recorder-feature"
          list="recorder-features"
          required
          maxLength={80}
          value={featureName}
          onChange={(e) => setFeatureName(e.target.value)}
          className="h-9 rounded-md border border-slate-300 px-2 text-sm"
        />
        <datalist id="recorder-features">
          {features.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <label className="text-xs font-medium text-slate-700" htmlFor="recorder-scenario">
          {Strings.recorderScenarioName}
        </label>
        <input
          id="recorder-scenario"
          required
          maxLength={80}
          value={scenarioName}
          onChange={(e) => setScenarioName(e.target.value)}
          className="h-9 rounded-md border border-slate-300 px-2 text-sm"
        />
        {upToDate && publishedAs ? (
          // Opens beside the recorder: the session stays, to record more or publish again.
          <a
            href={scenarioHref ?? ''}
            target="_blank"
            rel="noopener"
            className="focus-ring inline-flex h-10 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-brand-700 shadow-xs hover:bg-slate-50"
          >
            <ExternalLink aria-hidden="true" className="size-3.5" />
            {Strings.recorderOpenPublished}
          </a>
        ) : (
          <Button type="submit" disabled={!enabled || busy || commands.length < 2}>
            <Send aria-hidden="true" className="size-3.5" />
            {Strings.recorderPublish}
          </Button>
        )}
        {result && (
          <p role="status" className="text-xs text-emerald-700">
            {result}
          </p>
        )}
        {error && (
          <p role="alert" className="text-xs text-red-700">
            {error}
          </p>
        )}
      </form>
    </aside>
  );
}

/** A report link of this server, as a path of this origin (the server names it with its public URL). */
function reportPath(link: string | null): string | null {
  if (!link) return null;
  try {
    const url = new URL(link, window.location.origin);
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

/**
 * The self-check after Publish (DESIGN §7): the recording replayed once on the recorded app. While
 * it runs, a spinner; then the pass, or the step that did not replay with the runner's reason and
 * the ways to fix it (the scenario, where the step can be edited or recorded again, and the report).
 */
function SelfCheck({ check, scenarioHref }: { check: RecordingCheck; scenarioHref: string | null }) {
  const report = check.state === 'checking' ? null : reportPath(check.reportLink);
  if (check.state === 'checking') {
    return (
      <p role="status" className="flex items-center gap-2 text-xs text-slate-700" data-testid="recording-check">
        <Spinner />
        {describeRecordingCheck(check)}
      </p>
    );
  }
  if (check.state === 'passed') {
    return (
      <p role="status" className="flex items-start gap-1.5 text-xs text-emerald-700" data-testid="recording-check">
        <CheckCircle2 aria-hidden="true" className="mt-px size-3.5 shrink-0" />
        <span>
          {describeRecordingCheck(check)}
          {report && (
            <>
              {' · '}
              <a href={report} target="_blank" rel="noopener" className="focus-ring rounded-sm underline">
                {Strings.recorderCheckReport}
              </a>
            </>
          )}
        </span>
      </p>
    );
  }
  return (
    <div
      role="alert"
      className="flex flex-col gap-1.5 rounded-md border border-red-200 bg-red-50 p-2.5 text-xs text-red-800"
      data-testid="recording-check"
    >
      <p className="flex items-start gap-1.5 font-medium">
        <CircleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
        <span className="break-words">{describeRecordingCheck(check)}</span>
      </p>
      {check.state === 'failed' && <p className="text-red-900">{Messages.recorderCheckFix}</p>}
      <p className="flex flex-wrap gap-x-3 gap-y-1">
        {scenarioHref && (
          <a href={scenarioHref} target="_blank" rel="noopener" className="focus-ring rounded-sm font-semibold underline">
            {Strings.recorderCheckOpenScenario}
          </a>
        )}
        {report && (
          <a href={report} target="_blank" rel="noopener" className="focus-ring rounded-sm font-semibold underline">
            {Strings.recorderCheckReport}
          </a>
        )}
      </p>
    </div>
  );
}
