import { CircleAlert, LoaderCircle } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../lib/api';
import { Strings } from '../lib/strings';
import { Button } from './Button';
import { Modal } from './Modal';

/** Spec 01 §4: the dialog's state resets 400 ms after it closes (after the closing animation). */
export const DELETE_DIALOG_RESET_MS = 400;
/** Spec 01 §5: names in the delete dialog are cut at 42 characters. */
export const DELETE_NAME_MAX = 42;

/** A name as the delete dialog shows it: `.feature` / `.json` dropped, cut at 42 characters. */
export function deleteDialogName(name: string): string {
  const bare = name.replace(/\.(feature|json)$/i, '');
  const chars = Array.from(bare);
  return chars.length > DELETE_NAME_MAX ? `${chars.slice(0, DELETE_NAME_MAX).join('')}…` : bare;
}

type Phase = { name: 'idle' } | { name: 'busy' } | { name: 'failed'; message: string };

export interface ConfirmDeleteDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What is deleted, for the title: "Delete {what}". */
  what: string;
  /** The item's name; shortened with `deleteDialogName`. */
  name: string;
  /** Replaces the default question. */
  question?: ReactNode;
  title?: string;
  confirmLabel?: string;
  busyLabel?: string;
  /** The confirm button's label after a failure (spec: 'Retry delete'; member removal: 'Retry removing user'). */
  retryLabel?: string;
  /** Does the deletion; a rejection shows its message and offers a retry. */
  onConfirm: () => Promise<unknown>;
  /** Turns the failure into the message shown (default: the server's words). */
  failureMessage?: (error: unknown) => string;
}

/**
 * The one confirm-delete dialog (spec 01 §4): idle → busy → closed on success; a failure shows
 * the error and the button reads 'Retry delete'. It cannot be closed while deleting.
 */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  what,
  name,
  question,
  title,
  confirmLabel = Strings.delete,
  busyLabel = Strings.deleting,
  retryLabel = Strings.retryDelete,
  onConfirm,
  failureMessage = errorMessage,
}: ConfirmDeleteDialogProps) {
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // After closing, the state resets once the dialog has faded (400 ms); opening it again sooner
  // starts clean at once (derived from the prop during render, so no stale frame shows).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open && phase.name !== 'idle') setPhase({ name: 'idle' });
  }

  useEffect(() => {
    if (open) return;
    const timer = setTimeout(() => setPhase({ name: 'idle' }), DELETE_DIALOG_RESET_MS);
    return () => clearTimeout(timer);
  }, [open]);

  const busy = phase.name === 'busy';
  const shown = deleteDialogName(name);

  const confirm = async () => {
    setPhase({ name: 'busy' });
    try {
      await onConfirm();
      if (!mounted.current) return;
      onOpenChange(false);
    } catch (error) {
      if (mounted.current) setPhase({ name: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      alert
      size="sm"
      dismissible={!busy}
      testId="confirm-delete-dialog"
      title={title ?? Strings.deleteTitle(what)}
      description={question ?? Strings.deleteQuestion(shown)}
      footer={
        <>
          <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
            {Strings.cancel}
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => void confirm()} data-autofocus>
            {busy && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            {busy ? busyLabel : phase.name === 'failed' ? retryLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {phase.name === 'failed' && (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-700">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{phase.message}</span>
        </p>
      )}
    </Modal>
  );
}
