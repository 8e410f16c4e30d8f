import type { NameCheck } from '@rehearse/contract';
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import { errorMessage } from '../../lib/api';

interface RenameDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  oldName: string;
  /** The contract's rule for this kind of name (scenario or feature rename). */
  validate: (name: string) => NameCheck;
  onRename: (name: string) => Promise<unknown>;
  /** Turns a server failure into the message shown. */
  failureMessage?: (error: unknown) => string;
}

/**
 * Rename a scenario or feature (spec 02 §5): the contract's rules run as the user types, so every
 * broken rule shows its message at once; the server checks the same rules again.
 */
export function RenameDialog({ open, onOpenChange, title, oldName, validate, onRename, failureMessage = errorMessage }: RenameDialogProps) {
  const [name, setName] = useState(oldName);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setName(oldName);
      setTouched(false);
      setServerError(null);
    }
  }, [open, oldName]);

  const check = validate(name);
  const shown = serverError ?? (touched ? check.error : null);

  const submit = async () => {
    setTouched(true);
    if (check.error) return;
    setBusy(true);
    setServerError(null);
    try {
      await onRename(check.name);
      onOpenChange(false);
    } catch (error) {
      setServerError(failureMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title={title}
      testId="rename-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form="rename-form" disabled={busy || (touched && check.error !== null)}>
            {busy ? S.renaming : S.rename}
          </Button>
        </>
      }
    >
      <form
        id="rename-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField
          label={S.newName}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setTouched(true);
            setServerError(null);
          }}
          error={shown}
          autoFocus
        />
      </form>
    </Modal>
  );
}
