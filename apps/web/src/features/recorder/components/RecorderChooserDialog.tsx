import { Messages } from '@rehearse/contract';
import { Cloud, Laptop, LoaderCircle, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { Strings } from '../../../lib/strings';
import { checkCloudStart, type CloudStartState } from '../cloud-start';
import { readRecorderOption, saveRecorderOption, type RecorderOption } from '../recorder-option';
import { OpenSessions } from './OpenSessions';

/**
 * The recorder chooser (spec 01 §4): Locally or In the cloud, remembered for next time. In the
 * cloud, the user's sessions and the environment's reachability are checked before the tab
 * opens; Start is disabled while checking and reads 'Retry starting' after a failure.
 */
export function RecorderChooserDialog({
  open,
  onOpenChange,
  onStart,
  environmentUrl,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onStart: (option: RecorderOption) => void;
  /** The selected environment's base URL: what the cloud recorder will open. */
  environmentUrl: string | undefined;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={Strings.recorderChooserTitle}
      description={Strings.recorderChooserIntro}
      testId="recorder-chooser"
    >
      {open && <Chooser onCancel={() => onOpenChange(false)} onStart={onStart} environmentUrl={environmentUrl} />}
    </Modal>
  );
}

function Chooser({
  onCancel,
  onStart,
  environmentUrl,
}: {
  onCancel: () => void;
  onStart: (option: RecorderOption) => void;
  environmentUrl: string | undefined;
}) {
  const [option, setOption] = useState<RecorderOption>(readRecorderOption);
  const [cloud, setCloud] = useState<CloudStartState>({ kind: 'idle' });
  // A check that answers after the dialog closed must not open a tab.
  const open = useRef(true);
  useEffect(
    () => () => {
      open.current = false;
    },
    [],
  );
  const checking = cloud.kind === 'checking';

  const start = async () => {
    saveRecorderOption(option);
    if (option === 'local') return onStart(option);
    setCloud({ kind: 'checking' });
    const problem = await checkCloudStart(environmentUrl ?? '');
    if (!open.current) return;
    if (problem) return setCloud({ kind: 'error', problem });
    setCloud({ kind: 'idle' });
    onStart(option);
  };

  const choices: { value: RecorderOption; label: string; hint: string; icon: LucideIcon }[] = [
    { value: 'local', label: Strings.recorderLocal, hint: Strings.recorderLocalHint, icon: Laptop },
    { value: 'cloud', label: Strings.recorderCloud, hint: Strings.recorderCloudHint, icon: Cloud },
  ];

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!checking) void start();
      }}
      className="flex flex-col gap-4"
    >
      <fieldset className="grid grid-cols-2 gap-3">
        <legend className="sr-only">{Strings.recorderChooserIntro}</legend>
        {choices.map(({ value, label, hint, icon: Icon }) => (
          <label
            key={value}
            className={`flex cursor-pointer flex-col gap-2 rounded-xl border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${
              option === value ? 'border-brand-500 bg-brand-50' : 'border-slate-200 hover:border-slate-300'
            }`}
          >
            <span className="flex items-center gap-2">
              <input
                type="radio"
                name="recorderOption"
                value={value}
                checked={option === value}
                onChange={() => {
                  setOption(value);
                  setCloud({ kind: 'idle' });
                }}
                disabled={checking}
                className="size-4 accent-brand-600"
              />
              <Icon aria-hidden="true" className="size-4 text-brand-600" />
              <span className="text-sm font-semibold text-slate-900">{label}</span>
            </span>
            <span className="text-xs leading-relaxed text-slate-600">{hint}</span>
          </label>
        ))}
      </fieldset>
      {cloud.kind === 'error' && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
          <p className="font-semibold">{cloud.problem.title}</p>
          <p className="mt-1 leading-relaxed">{cloud.problem.text}</p>
        </div>
      )}
      {/* "Please end ongoing sessions": the user can end them right here, then Retry starting. */}
      {cloud.kind === 'error' && cloud.problem.text === Messages.recorderMaxSessions && <OpenSessions />}
      <div className="flex justify-end gap-3 pt-1">
        <Button variant="secondary" onClick={onCancel}>
          {Strings.cancel}
        </Button>
        <Button type="submit" disabled={checking}>
          {checking && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          {checking ? Strings.recorderCheckingCloud : cloud.kind === 'error' ? Strings.recorderRetryStart : Strings.recorderStart}
        </Button>
      </div>
    </form>
  );
}
