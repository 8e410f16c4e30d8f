import { useEffect, useState } from 'react';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import { errorMessage } from '../../../lib/api';

/**
 * Comment on a step (spec 02 §5: Publish disabled if empty or unchanged): kept in the scenario
 * file as a Gherkin comment above the step, so it travels with the scenario in git.
 */
export function CommentDialog({
  open,
  onOpenChange,
  initial,
  onPublish,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initial: string;
  onPublish: (comment: string) => Promise<void>;
}) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setText(initial);
      setError(null);
    }
  }, [open, initial]);
  const unchanged = text.trim() === '' || text.trim() === initial.trim();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={S.commentTitle}
      description={S.commentHint}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            disabled={unchanged || busy}
            onClick={() => {
              setBusy(true);
              setError(null);
              onPublish(text)
                .then(() => onOpenChange(false))
                .catch((failure: unknown) => setError(errorMessage(failure)))
                .finally(() => setBusy(false));
            }}
          >
            {S.publish}
          </Button>
        </>
      }
    >
      <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-700">
        {S.commentLabel}
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={4}
          className="focus-ring rounded-lg border border-slate-300 p-2 text-sm font-normal"
        />
      </label>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </Modal>
  );
}
