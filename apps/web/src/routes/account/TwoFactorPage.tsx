import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { StandalonePage } from '../../shell/StandalonePage';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { useTwoFactorChanges, useTwoFactorStatus } from '../../features/auth/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';

/** The key as authenticator apps show it: groups of four. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * The signed-in user's two-factor sign-in (reached from the user menu): turn it on by scanning a
 * QR code and confirming a first code, keep the ten recovery codes shown once, or turn it off with
 * a code. Not project settings: it belongs to the account, on every project.
 */
export function TwoFactorPage() {
  useDocumentTitle(Strings.twoFactorTitle);
  const status = useTwoFactorStatus();
  const { begin, enable, disable } = useTwoFactorChanges();
  const [code, setCode] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    enable.mutate(code, {
      onSuccess: ({ recoveryCodes: codes }) => {
        setRecoveryCodes(codes);
        setCode('');
        begin.reset();
        toast.success(Strings.twoFactorEnabled);
      },
    });
  };
  const turnOff = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    disable.mutate(code, {
      onSuccess: () => {
        setCode('');
        toast.success(Strings.twoFactorDisabled);
      },
    });
  };

  const codeField = (error: unknown) => (
    <TextField
      label={Strings.twoFactorCodeLabel}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      value={code}
      onChange={(event) => setCode(event.target.value)}
      error={error ? errorMessage(error) : null}
    />
  );

  let body;
  if (status.isError) {
    body = <ErrorPanel title={Strings.twoFactorTitle} detail={errorMessage(status.error)} onRetry={() => void status.refetch()} />;
  } else if (!status.data) {
    body = <Spinner />;
  } else if (recoveryCodes) {
    body = (
      <section aria-labelledby="recovery-title" className="flex flex-col gap-4 rounded-xl border border-amber-200 bg-amber-50 p-6">
        <h2 id="recovery-title" className="text-lg font-semibold text-slate-900">
          {Strings.twoFactorRecoveryTitle}
        </h2>
        <p className="text-sm text-slate-700">{Strings.twoFactorRecoveryText}</p>
        <ul className="grid grid-cols-2 gap-2 font-mono text-sm text-slate-900" data-testid="recovery-codes">
          {recoveryCodes.map((one) => (
            <li key={one} className="rounded-md bg-white px-3 py-1.5">
              {one}
            </li>
          ))}
        </ul>
        <Button className="self-start" onClick={() => setRecoveryCodes(null)}>
          {Strings.twoFactorDone}
        </Button>
      </section>
    );
  } else if (status.data.enabled) {
    body = (
      <form onSubmit={turnOff} noValidate className="flex max-w-sm flex-col gap-4" aria-label={Strings.twoFactorTurnOff}>
        <p className="text-sm text-slate-600">{Strings.twoFactorOffHint}</p>
        {codeField(disable.error)}
        <Button type="submit" variant="secondary" disabled={disable.isPending || !code.trim()} className="self-start">
          {Strings.twoFactorTurnOff}
        </Button>
      </form>
    );
  } else if (begin.data) {
    body = (
      <form onSubmit={confirm} noValidate className="flex flex-col gap-5" aria-label={Strings.twoFactorConfirm}>
        <p className="max-w-2xl text-sm text-slate-600">{Strings.twoFactorScan}</p>
        <div className="flex flex-wrap items-start gap-6">
          <img src={begin.data.qrCode} alt={Strings.twoFactorQrAlt} className="size-48 rounded-lg border border-slate-200 bg-white p-2" />
          <div className="flex max-w-sm min-w-0 flex-col gap-4">
            <div>
              <p className="text-sm font-medium text-slate-700">{Strings.twoFactorKey}</p>
              <p className="mt-1 font-mono text-sm break-all text-slate-900" data-testid="two-factor-key">
                {grouped(begin.data.secret)}
              </p>
            </div>
            {codeField(enable.error)}
            <Button type="submit" disabled={enable.isPending || !code.trim()} className="self-start">
              {Strings.twoFactorConfirm}
            </Button>
          </div>
        </div>
      </form>
    );
  } else {
    body = (
      <div className="flex flex-col items-start gap-3">
        {begin.isError && <ErrorPanel title={Strings.twoFactorTitle} detail={errorMessage(begin.error)} />}
        <Button onClick={() => begin.mutate()} disabled={begin.isPending}>
          {Strings.twoFactorTurnOn}
        </Button>
      </div>
    );
  }

  return (
    <StandalonePage>
      <header className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.twoFactorTitle}</h1>
          {status.data && (
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                status.data.enabled ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700'
              }`}
              data-testid="two-factor-state"
            >
              {status.data.enabled
                ? `${Strings.twoFactorOn} · ${Strings.twoFactorRecoveryLeft(status.data.recoveryCodesLeft)}`
                : Strings.twoFactorOff}
            </span>
          )}
        </div>
        <p className="text-slate-600">{Strings.twoFactorIntro}</p>
      </header>
      {body}
    </StandalonePage>
  );
}
