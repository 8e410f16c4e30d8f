import { Rocket } from 'lucide-react';
import { Link } from 'react-router';
import { Strings } from '../lib/strings';

/** Shown instead of a dashboard when the user has no project (spec 01 §2). */
export function GettingStarted() {
  return (
    <section
      aria-labelledby="getting-started-title"
      className="flex h-full min-h-80 flex-col items-center justify-center gap-4 p-8 text-center"
    >
      <span className="flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
        <Rocket aria-hidden="true" className="size-7" />
      </span>
      <h1 id="getting-started-title" className="text-2xl font-semibold tracking-tight text-slate-900">
        {Strings.gettingStartedTitle}
      </h1>
      <p className="max-w-md text-slate-600">{Strings.gettingStartedText}</p>
      <Link
        to="/projects/new?newUser=1"
        className="focus-ring mt-2 inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
      >
        {Strings.gettingStartedLink}
      </Link>
    </section>
  );
}
