import { LoaderCircle } from 'lucide-react';
import { Strings } from '../lib/strings';

/** A centred spinner that screen readers announce as loading. */
export function FullPageSpinner({ label = Strings.loading }: { label?: string }) {
  return (
    <div role="status" className="flex h-full min-h-48 w-full items-center justify-center gap-3 text-slate-500">
      <LoaderCircle aria-hidden="true" className="size-6 animate-spin text-brand-600" />
      <span className="text-sm">{label}</span>
    </div>
  );
}

/** A small inline spinner beside text that already says what is loading. */
export function Spinner() {
  return <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-brand-600" />;
}
