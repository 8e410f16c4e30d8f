import { Cloud, Laptop, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { Strings } from '../../../lib/strings';
import { readRecorderOption, saveRecorderOption, type RecorderOption } from '../recorder-option';

/** The recorder chooser (spec 01 §4): Locally or In the cloud, remembered for next time. */
export function RecorderChooserDialog({
  open,
  onOpenChange,
  onStart,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onStart: (option: RecorderOption) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={Strings.recorderChooserTitle}
      description={Strings.recorderChooserIntro}
      testId="recorder-chooser"
    >
      {open && <Chooser onCancel={() => onOpenChange(false)} onStart={onStart} />}
    </Modal>
  );
}

function Chooser({ onCancel, onStart }: { onCancel: () => void; onStart: (option: RecorderOption) => void }) {
  const [option, setOption] = useState<RecorderOption>(readRecorderOption);

  const choices: { value: RecorderOption; label: string; hint: string; icon: LucideIcon }[] = [
    { value: 'local', label: Strings.recorderLocal, hint: Strings.recorderLocalHint, icon: Laptop },
    { value: 'cloud', label: Strings.recorderCloud, hint: Strings.recorderCloudHint, icon: Cloud },
  ];

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        saveRecorderOption(option);
        onStart(option);
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
                onChange={() => setOption(value)}
                className="size-4 accent-brand-600"
              />
              <Icon aria-hidden="true" className="size-4 text-brand-600" />
              <span className="text-sm font-semibold text-slate-900">{label}</span>
            </span>
            <span className="text-xs leading-relaxed text-slate-600">{hint}</span>
          </label>
        ))}
      </fieldset>
      <div className="flex justify-end gap-3 pt-1">
        <Button variant="secondary" onClick={onCancel}>
          {Strings.cancel}
        </Button>
        <Button type="submit">{Strings.recorderStart}</Button>
      </div>
    </form>
  );
}
