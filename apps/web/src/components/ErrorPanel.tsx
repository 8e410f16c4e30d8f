import { CircleAlert } from 'lucide-react';
import { Strings } from '../lib/strings';
import { Button } from './Button';

/** A failed load inside a screen: what failed, the server's words, and a retry when one helps. */
export function ErrorPanel({ title, detail, onRetry }: { title: string; detail?: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex h-full min-h-64 flex-col items-center justify-center gap-3 p-8 text-center">
      <CircleAlert aria-hidden="true" className="size-8 text-red-500" />
      <p className="font-medium text-slate-900">{title}</p>
      {detail && <p className="max-w-md text-sm text-slate-600">{detail}</p>}
      {onRetry && (
        <Button variant="secondary" onClick={onRetry} className="mt-2">
          {Strings.retry}
        </Button>
      )}
    </div>
  );
}
