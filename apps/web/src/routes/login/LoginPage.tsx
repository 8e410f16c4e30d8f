import { authCalls, isSsoFailure, Messages, SSO_FAILURES } from '@rehearse/contract';
import { CircleAlert, FileCode2, GitPullRequestArrow, KeyRound, Play } from 'lucide-react';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { Navigate, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { Logo } from '../../components/Logo';
import { TextField } from '../../components/TextField';
import { useLogin, useSignup, useSsoConfig } from '../../features/auth/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { safeCallbackUrl } from '../../lib/format';
import { useSession } from '../../lib/session';
import { Strings } from '../../lib/strings';

type Mode = 'signin' | 'signup';
type FieldErrors = Record<string, string | undefined>;

/** First message per field of a failed contract validation, so the form says what the server would. */
function fieldErrors(error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> }): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Moves focus to the first field the validation refused, so keyboard and screen-reader users land on it. */
function focusFirstInvalid(form: HTMLFormElement, errors: FieldErrors): void {
  const field = Array.from(form.elements).find(
    (element): element is HTMLInputElement => element instanceof HTMLInputElement && Boolean(errors[element.name]),
  );
  field?.focus();
}

function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) if (typeof value === 'string') values[key] = value;
  return values;
}

/**
 * Our sign-in and sign-up page (the spec's hosted login widget). A signed-in user goes on to the
 * callbackUrl, or home (spec 01 §2).
 */
export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const { token } = useSession();
  const mode: Mode = params.get('mode') === 'signup' ? 'signup' : 'signin';
  useDocumentTitle(mode === 'signup' ? Strings.signUpTab : Strings.signInTab);
  const tabRefs = useRef<Record<Mode, HTMLButtonElement | null>>({ signin: null, signup: null });
  // Where a brand-new account goes when no callbackUrl names a page: straight into the guided
  // tour on its project's Features (issue 47; the spec's dashboard then says the tour waits).
  const [landing, setLanding] = useState<string | null>(null);

  if (token) {
    const callbackUrl = params.get('callbackUrl');
    return <Navigate to={callbackUrl ? safeCallbackUrl(callbackUrl) : (landing ?? '/')} replace />;
  }

  const setMode = (next: Mode) => {
    const nextParams = new URLSearchParams(params);
    if (next === 'signup') nextParams.set('mode', 'signup');
    else nextParams.delete('mode');
    setParams(nextParams, { replace: true });
  };

  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next: Mode = mode === 'signin' ? 'signup' : 'signin';
    setMode(next);
    tabRefs.current[next]?.focus();
  };

  const tab = (value: Mode, label: string) => (
    <button
      ref={(element) => {
        tabRefs.current[value] = element;
      }}
      type="button"
      role="tab"
      id={`tab-${value}`}
      aria-selected={mode === value}
      aria-controls={`panel-${value}`}
      tabIndex={mode === value ? 0 : -1}
      onClick={() => setMode(value)}
      onKeyDown={onTabKeyDown}
      className={`focus-ring flex-1 rounded-md px-3 py-2 text-sm font-semibold transition-colors ${
        mode === value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
      }`}
    >
      {label}
    </button>
  );

  return (
    <div className="flex h-full">
      <section
        aria-hidden="true"
        className="relative hidden w-[44%] flex-col justify-between overflow-hidden bg-gradient-to-br from-brand-700 via-brand-600 to-indigo-500 p-12 text-white lg:flex"
      >
        <div className="absolute -top-24 -right-24 size-96 rounded-full bg-white/10 blur-2xl" />
        <div className="absolute -bottom-32 -left-20 size-96 rounded-full bg-indigo-300/20 blur-3xl" />
        <span className="relative flex items-center gap-2.5 text-xl font-bold tracking-tight">
          <svg viewBox="0 0 32 32" className="size-9">
            <rect width="32" height="32" rx="8" fill="#fff" />
            <path d="M11 8v16l13-8z" className="fill-brand-600" />
          </svg>
          {Strings.appName}
        </span>
        <div className="relative max-w-md space-y-8">
          <p className="text-3xl leading-tight font-semibold">{Strings.loginSubtitle}</p>
          <ul className="space-y-4 text-sm text-white/90">
            <li className="flex items-center gap-3">
              <FileCode2 className="size-5" /> {Strings.loginPointGherkin}
            </li>
            <li className="flex items-center gap-3">
              <Play className="size-5" /> {Strings.loginPointRuns}
            </li>
            <li className="flex items-center gap-3">
              <GitPullRequestArrow className="size-5" /> {Strings.loginPointReview}
            </li>
          </ul>
        </div>
        <span />
      </section>

      <main className="flex flex-1 items-center justify-center overflow-y-auto bg-white p-8">
        <div className="w-full max-w-sm">
          <div className="mb-8 lg:hidden">
            <Logo />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.loginTitle}</h1>
          <p className="mt-1.5 text-sm text-slate-500">{mode === 'signup' ? Strings.signUpTrialNote : Strings.signInIntro}</p>

          <div role="tablist" aria-label={Strings.appName} className="mt-6 flex gap-1 rounded-lg bg-slate-100 p-1">
            {tab('signin', Strings.signInTab)}
            {tab('signup', Strings.signUpTab)}
          </div>

          <div role="tabpanel" id={`panel-${mode}`} aria-labelledby={`tab-${mode}`} className="mt-6">
            {mode === 'signin' ? (
              <SignInForm key="signin" />
            ) : (
              <SignUpForm
                key="signup"
                // Committed before the session starts, so the redirect that follows sees it.
                onNewProject={(projectId) => flushSync(() => setLanding(`/${projectId}/features?newUser=1`))}
              />
            )}
          </div>
          <SingleSignOn callbackUrl={params.get('callbackUrl')} failure={params.get('sso')} />
        </div>
      </main>
    </div>
  );
}

function ServerError({ message }: { message: string }) {
  return (
    <div role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-700">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </div>
  );
}

/**
 * "Sign in with <provider>" when the server offers single sign-on, and what went wrong when the
 * provider's round trip came back without a session (a code from the server, never its text).
 */
function SingleSignOn({ callbackUrl, failure }: { callbackUrl: string | null; failure: string | null }) {
  const sso = useSsoConfig();
  const start = `/api/auth/sso/start?${new URLSearchParams({ callbackUrl: safeCallbackUrl(callbackUrl) }).toString()}`;
  return (
    <div className="mt-6 flex flex-col gap-4">
      {isSsoFailure(failure) && <ServerError message={SSO_FAILURES[failure]} />}
      {sso.data?.enabled && (
        <>
          <div className="flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
            <span className="h-px flex-1 bg-slate-200" />
            {Strings.signInOr}
            <span className="h-px flex-1 bg-slate-200" />
          </div>
          <a
            href={start}
            className="focus-ring inline-flex h-11 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
          >
            <KeyRound aria-hidden="true" className="size-4" />
            {Strings.signInWith(sso.data.name)}
          </a>
        </>
      )}
    </div>
  );
}

/** The server's answers that mean "the password was right; now the second factor". */
const SECOND_STEP: ReadonlySet<string> = new Set([Messages.twoFactorRequired, Messages.twoFactorInvalid]);

function SignInForm() {
  const login = useLogin();
  const [errors, setErrors] = useState<FieldErrors>({});
  // Once asked for, the code field stays: a wrong code must not send the user back a step.
  const [askCode, setAskCode] = useState(false);
  const failure = login.isError ? errorMessage(login.error) : null;
  if (failure && SECOND_STEP.has(failure) && !askCode) setAskCode(true);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = authCalls.login.body.safeParse(formValues(form));
    if (!parsed.success) {
      const next = fieldErrors(parsed.error);
      setErrors(next);
      focusFirstInvalid(form, next);
      return;
    }
    setErrors({});
    login.mutate(parsed.data);
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={Strings.signInTab}>
      <TextField label={Strings.fieldEmail} name="email" type="email" autoComplete="email" autoFocus error={errors.email} />
      <TextField label={Strings.fieldPassword} name="password" type="password" autoComplete="current-password" error={errors.password} />
      {askCode && (
        <TextField
          label={Strings.signInCodeLabel}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          hint={Strings.signInCodeHint}
          error={errors.code}
        />
      )}
      {failure && <ServerError message={failure} />}
      <Button type="submit" disabled={login.isPending} className="mt-2 h-11">
        {login.isPending ? Strings.signInBusy : Strings.signInSubmit}
      </Button>
    </form>
  );
}

function SignUpForm({ onNewProject }: { onNewProject: (projectId: string) => void }) {
  const signup = useSignup({ onAccount: ({ projectId, isNewUser }) => isNewUser && onNewProject(projectId) });
  const [errors, setErrors] = useState<FieldErrors>({});

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    if (!values.companyName?.trim()) delete values.companyName;
    const parsed = authCalls.signup.body.safeParse(values);
    if (!parsed.success) {
      const next = fieldErrors(parsed.error);
      setErrors(next);
      focusFirstInvalid(form, next);
      return;
    }
    setErrors({});
    signup.mutate(parsed.data);
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={Strings.signUpTab}>
      <div className="grid grid-cols-2 gap-3">
        <TextField label={Strings.fieldFirstName} name="firstname" autoComplete="given-name" autoFocus error={errors.firstname} />
        <TextField label={Strings.fieldLastName} name="lastname" autoComplete="family-name" error={errors.lastname} />
      </div>
      <TextField label={Strings.fieldEmail} name="email" type="email" autoComplete="email" error={errors.email} />
      <TextField
        label={Strings.fieldPassword}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={Strings.passwordHint}
        error={errors.password}
      />
      <TextField label={Strings.fieldCompany} name="companyName" autoComplete="organization" error={errors.companyName} />
      {signup.isError && <ServerError message={errorMessage(signup.error)} />}
      <Button type="submit" disabled={signup.isPending} className="mt-2 h-11">
        {signup.isPending ? Strings.signUpBusy : Strings.signUpSubmit}
      </Button>
    </form>
  );
}
