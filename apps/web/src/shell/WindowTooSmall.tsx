import { Monitor } from 'lucide-react';
import { useWindowSize } from '../hooks/useWindowSize';
import { Layout } from '../lib/layout';
import { Strings } from '../lib/strings';

/** Covers the app when the window is under 1024 × 660 (spec 01 §2, §9). */
export function WindowTooSmall() {
  const { width, height } = useWindowSize();
  if (width >= Layout.minWindowWidth && height >= Layout.minWindowHeight) return null;
  return (
    <div
      role="alert"
      aria-labelledby="window-too-small-title"
      className="fixed inset-0 z-[100] flex flex-col items-center justify-center gap-4 bg-slate-50 p-6 text-center"
    >
      <span className="flex size-14 items-center justify-center rounded-2xl bg-brand-100 text-brand-700">
        <Monitor aria-hidden="true" className="size-7" />
      </span>
      <h1 id="window-too-small-title" className="text-xl font-semibold text-slate-900">
        {Strings.windowTooSmallTitle}
      </h1>
      <p className="max-w-sm text-sm text-slate-600">{Strings.windowTooSmallText}</p>
    </div>
  );
}
