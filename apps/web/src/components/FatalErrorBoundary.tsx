import { TriangleAlert } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Strings } from '../lib/strings';

/** The fatal-error screen of spec 01 §2; a plain button so it works whatever else broke. */
export function FatalErrorScreen() {
  return (
    <div role="alert" className="flex h-full flex-col items-center justify-center gap-5 bg-slate-50 p-6 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-red-100 text-red-600">
        <TriangleAlert aria-hidden="true" className="size-7" />
      </span>
      <p className="text-lg font-medium text-slate-900">{Strings.fatalErrorText}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 focus-visible:outline-none"
      >
        {Strings.fatalErrorReload}
      </button>
    </div>
  );
}

/** Catches any render error below it and shows the fatal-error screen instead of a blank page. */
export class FatalErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Rehearse crashed while rendering', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <FatalErrorScreen /> : this.props.children;
  }
}
