import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import type { Confirm, StepCodeEvent } from '../../../features/scenarios/step-code-machine';
import { FeatureStrings as S } from '../../../features/scenarios/strings';

/** The question the step code machine is asking: unsaved changes, discard, or code that does not parse. */
export function StepCodeConfirm({
  confirm,
  errors,
  send,
}: {
  confirm: Confirm | null;
  errors: number[];
  send: (event: StepCodeEvent) => void;
}) {
  const kind = confirm?.kind;
  return (
    <Modal
      open={confirm !== null}
      onOpenChange={(next) => !next && send({ type: 'confirmDismissed' })}
      alert
      size="sm"
      testId="step-code-confirm"
      title={kind === 'syntax' ? S.syntaxErrorTitle : kind === 'discard' ? S.discardTitle : S.unsavedTitle}
      description={kind === 'syntax' ? S.syntaxErrorText(errors) : kind === 'discard' ? S.discardText : S.unsavedStepText}
      footer={
        kind === 'syntax' ? (
          <>
            <Button variant="secondary" onClick={() => send({ type: 'backToEditing' })}>
              {S.backToEditing}
            </Button>
            <Button onClick={() => send({ type: 'saveAnywayConfirmed' })}>{S.saveAnyway}</Button>
          </>
        ) : kind === 'discard' ? (
          <>
            <Button variant="ghost" onClick={() => send({ type: 'confirmDismissed' })}>
              {S.keepEditing}
            </Button>
            <Button variant="danger" onClick={() => send({ type: 'discardConfirmed' })}>
              {S.discardChanges}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => send({ type: 'discardConfirmed' })}>
              {S.discardChanges}
            </Button>
            <Button onClick={() => send({ type: 'saveRequested' })}>{S.saveChanges}</Button>
          </>
        )
      }
    />
  );
}
