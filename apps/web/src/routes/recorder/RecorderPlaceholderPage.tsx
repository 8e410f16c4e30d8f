import { Clapperboard } from 'lucide-react';
import { useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { Strings } from '../../lib/strings';

/**
 * `/open-recorder/{operation}` and `/remote-recorder/{cmd}` (spec 01 §2): the recorder itself is
 * a later release. The tab says so plainly and shows what it was opened with.
 */
export function RecorderPlaceholderPage({ kind }: { kind: 'local' | 'cloud' }) {
  const params = useParams();
  const [search] = useSearchParams();
  const operation = (kind === 'local' ? params.operation : params.cmd) ?? '';
  useDocumentTitle(kind === 'local' ? Strings.recorderLocal : Strings.recorderCloud);

  return (
    <div className="flex h-full flex-col">
      <Header />
      <main id="main" className="flex min-h-0 flex-1 items-center justify-center overflow-y-auto p-8">
        <section className="flex w-full max-w-lg flex-col items-center gap-4 rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
            <Clapperboard aria-hidden="true" className="size-6" />
          </span>
          <p className="text-sm font-semibold text-brand-700">{kind === 'local' ? Strings.recorderLocal : Strings.recorderCloud}</p>
          <h1 className="text-xl font-semibold text-slate-900">{Strings.recorderPlaceholderTitle}</h1>
          <p className="text-sm text-slate-600">{Strings.recorderPlaceholderText}</p>
          <details className="w-full rounded-lg bg-slate-50 px-4 py-3 text-left text-sm">
            <summary className="cursor-pointer font-medium text-slate-700">{Strings.recorderPlaceholderDetails}</summary>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 font-mono text-xs text-slate-700">
              <dt className="text-slate-500">{Strings.recorderOperation}</dt>
              <dd className="break-all">{operation}</dd>
              {[...search.entries()].map(([key, value]) => (
                <div key={key} className="contents">
                  <dt className="text-slate-500">{key}</dt>
                  <dd className="break-all">{value}</dd>
                </div>
              ))}
            </dl>
          </details>
          <Button variant="secondary" onClick={() => window.close()}>
            {Strings.recorderCloseTab}
          </Button>
        </section>
      </main>
    </div>
  );
}
