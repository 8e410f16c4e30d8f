import { runsCalls } from '@rehearse/contract';
import { Download, SquareActivity } from 'lucide-react';
import { useState } from 'react';
import { api } from '../../lib/api';
import { Strings } from '../../lib/strings';
import type { ScreenshotOwner } from './queries';

interface KeptFiles {
  id: string;
  reportFiles?: { junit?: string | undefined; html?: string | undefined; messages?: string | undefined } | undefined;
  traceFileId?: string | undefined;
}

const FILES = [
  {
    key: 'junit',
    name: 'junit.xml',
    label: Strings.downloadJunit,
    title: undefined,
    idOf: (testCase: KeptFiles) => testCase.reportFiles?.junit,
  },
  {
    key: 'html',
    name: 'report.html',
    label: Strings.downloadHtmlReport,
    title: undefined,
    // The server renders the page from the run's messages (runs before them kept the page itself).
    idOf: (testCase: KeptFiles) => testCase.reportFiles?.messages ?? testCase.reportFiles?.html,
  },
  {
    key: 'trace',
    name: 'trace.zip',
    label: Strings.downloadTrace,
    title: Strings.downloadTraceHint,
    idOf: (testCase: KeptFiles) => testCase.traceFileId,
  },
] as const;

/**
 * Downloads of the JUnit XML and cucumber HTML report kept with the run of a scenario, and of its
 * Playwright trace. A file is saved, never opened in the app's origin: an uploaded HTML page (or a
 * trace's DOM snapshots, which are the tested app's markup) must not run as Rehearse.
 */
export function ReportFiles({ owner, testCase }: { owner: ScreenshotOwner; testCase: KeptFiles }) {
  const [failed, setFailed] = useState(false);
  const [traceFailed, setTraceFailed] = useState(false);
  const files = FILES.flatMap((file) => {
    const id = file.idOf(testCase);
    return id ? [{ ...file, id }] : [];
  });
  if (files.length === 0) return null;
  const download = async (id: string, name: string) => {
    setFailed(false);
    try {
      const params = { testCaseId: testCase.id, screenshotId: id };
      const answer =
        owner.kind === 'run'
          ? await api.call(runsCalls.runScreenshot, { params: { ...params, runId: owner.runId } })
          : await api.call(runsCalls.scenarioScreenshot, { params });
      const bytes = Uint8Array.from(atob(answer.image), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch {
      setFailed(true);
    }
  };
  // The viewer's service worker needs a secure context; elsewhere the download is the way.
  const canOpenTrace = Boolean(testCase.traceFileId) && window.isSecureContext;
  const openTrace = async () => {
    setTraceFailed(false);
    // Opened before the call answers, so the browser counts it as the click's own window.
    const viewer = window.open('', '_blank');
    try {
      const link = await api.call(runsCalls.traceLink, { query: { testCaseId: testCase.id } });
      if (!viewer) throw new Error('blocked');
      viewer.opener = null;
      viewer.location.href = link.viewerPath;
    } catch {
      viewer?.close();
      setTraceFailed(true);
    }
  };
  return (
    <section aria-label={Strings.reportFiles} className="flex flex-wrap items-center gap-2">
      {testCase.traceFileId && (
        <button
          type="button"
          data-testid="open-trace"
          disabled={!canOpenTrace}
          title={canOpenTrace ? Strings.openTraceHint : Strings.openTraceNeedsHttps}
          onClick={() => void openTrace()}
          className="focus-ring inline-flex items-center gap-1.5 rounded-md border border-brand-600 bg-brand-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
        >
          <SquareActivity aria-hidden="true" className="size-3.5" />
          {Strings.openTrace}
        </button>
      )}
      {files.map((file) => (
        <button
          key={file.key}
          type="button"
          data-testid={`download-${file.key}`}
          title={file.title}
          onClick={() => void download(file.id, file.name)}
          className="focus-ring inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50"
        >
          <Download aria-hidden="true" className="size-3.5" />
          {file.label}
        </button>
      ))}
      {failed && (
        <p role="alert" className="text-xs text-red-700">
          {Strings.downloadFailed}
        </p>
      )}
      {traceFailed && (
        <p role="alert" className="text-xs text-red-700">
          {Strings.openTraceFailed}
        </p>
      )}
    </section>
  );
}
