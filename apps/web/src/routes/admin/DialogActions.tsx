import { Button } from '../../components/Button';
import { Strings } from '../../lib/strings';

/** An administration dialog's Cancel and submit buttons; the submit one says Saving… while its call runs. */
export function DialogActions({
  onCancel,
  submitLabel,
  pending,
  disabled,
}: {
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
  disabled: boolean;
}) {
  return (
    <div className="flex justify-end gap-3">
      <Button variant="secondary" onClick={onCancel}>
        {Strings.adminCancel}
      </Button>
      <Button type="submit" disabled={disabled || pending}>
        {pending ? Strings.adminSaving : submitLabel}
      </Button>
    </div>
  );
}
