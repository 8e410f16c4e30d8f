import { Construction } from 'lucide-react';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { Strings } from '../../lib/strings';

/** Stands in for a spec screen that is not built yet, inside the real layout. */
export function ComingSoonPage({ screen }: { screen: string }) {
  useDocumentTitle(screen);
  return (
    <div className="flex h-full min-h-80 flex-col items-center justify-center gap-3 p-8 text-center">
      <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
        <Construction aria-hidden="true" className="size-6" />
      </span>
      <h1 className="text-xl font-semibold text-slate-900">{Strings.comingSoonTitle(screen)}</h1>
      <p className="max-w-md text-sm text-slate-600">{Strings.comingSoonText}</p>
    </div>
  );
}
