import {
  EnvironmentMessages,
  Messages,
  environmentDisplayName,
  suggestEnvironmentName,
  uniqueEnvironmentName,
  validateEnvironmentName,
  validateEnvironmentUrl,
  type EnvironmentEntry,
} from '@rehearse/contract';
import { LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { TextField } from '../../../components/TextField';
import { logActivity } from '../../../lib/activity-log';
import { errorMessage } from '../../../lib/api';
import { demoShopUrl } from '../../../lib/links';
import { Strings } from '../../../lib/strings';
import type { WorkspaceScope } from '../../workspace/scope';
import { useCreateEnvironment, useEditEnvironment } from '../queries';
import { saveNotice } from '../../../lib/notify';

export type EnvironmentDialogMode = { kind: 'create' } | { kind: 'edit'; entry: EnvironmentEntry };

export interface EnvironmentDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: EnvironmentDialogMode;
  scope: WorkspaceScope;
  /** Every environment of the branch (file names), for the duplicate rule and suggestions. */
  existing: readonly string[];
  /** Called after a successful create, with the new environment's file name. */
  onCreated?: (fileName: string) => void;
}

/**
 * Create and edit environment dialogs (spec 01 §4, §5). The form is remounted each time the
 * dialog opens, so it always starts clean.
 */
export function EnvironmentDialog(props: EnvironmentDialogProps) {
  const [submitting, setSubmitting] = useState(false);
  const { open, onOpenChange, mode } = props;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      dismissible={!submitting}
      testId="environment-dialog"
      title={mode.kind === 'create' ? Strings.environmentCreateTitle : Strings.environmentEditTitle}
      description={mode.kind === 'create' ? Strings.environmentCreateIntro : undefined}
    >
      {open && <EnvironmentForm {...props} onSubmittingChange={setSubmitting} />}
    </Modal>
  );
}

/** How the name field's content became what it is: typed by the user, or filled in for them. */
type NameSource = 'suggested' | 'typed';

function EnvironmentForm({
  onOpenChange,
  mode,
  scope,
  existing,
  onCreated,
  onSubmittingChange,
}: EnvironmentDialogProps & { onSubmittingChange: (submitting: boolean) => void }) {
  const editing = mode.kind === 'edit' ? mode.entry : null;
  const initialName = editing ? environmentDisplayName(editing.name) : '';
  const initialUrl = editing ? editing.data.baseUrl : '';

  const [name, setName] = useState(initialName);
  const [url, setUrl] = useState(initialUrl);
  const [nameSource, setNameSource] = useState<NameSource>(editing ? 'typed' : 'suggested');
  const [nameTouched, setNameTouched] = useState(false);
  const [urlTouched, setUrlTouched] = useState(false);
  const [truncatedNotice, setTruncatedNotice] = useState(false);
  const [demo, setDemo] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  /** Why the server refused the last save; cleared as soon as the user changes something. */
  const [refusal, setRefusal] = useState<string | null>(null);

  const create = useCreateEnvironment(scope);
  const edit = useEditEnvironment(scope);

  const nameCheck = validateEnvironmentName(name, existing, editing?.name ?? null);
  const urlCheck = validateEnvironmentUrl(url);
  const changed = !editing || nameCheck.name !== initialName || url !== initialUrl;
  const renaming = Boolean(editing) && nameCheck.name !== initialName && !nameCheck.error;
  // Errors show as soon as there is something to judge, or once the user has been in the field.
  const nameError = nameTouched || name !== '' ? nameCheck.error : null;
  const urlError = urlTouched || url !== '' ? urlCheck.error : null;

  const blockedReason = changed ? null : EnvironmentMessages.noChanges;
  const invalid = Boolean(nameCheck.error || urlCheck.error);

  const suggestFrom = (nextUrl: string) => {
    if (editing || nameSource === 'typed') return;
    setName(uniqueEnvironmentName(suggestEnvironmentName(nextUrl), existing));
  };

  const onNameChange = (value: string) => {
    setRefusal(null);
    setName(value);
    setNameSource('typed');
    // Emptying the field is judged at once: spec 01 §5's 'Empty Name', not a silent blank.
    setNameTouched(true);
    setTruncatedNotice(false);
  };

  // Spec 01 §5: a name over 32 characters is refused while typing and cut when the user moves on.
  const onNameBlur = () => {
    if (nameCheck.error === EnvironmentMessages.nameTooLong) {
      setName(nameCheck.name);
      setTruncatedNotice(true);
    }
  };

  const onUrlChange = (value: string) => {
    setRefusal(null);
    setUrl(value);
    setUrlTouched(true);
    suggestFrom(value);
  };

  const onDemoChange = (checked: boolean) => {
    setDemo(checked);
    if (checked) {
      const demoUrl = demoShopUrl();
      setUrl(demoUrl);
      setUrlTouched(true);
      setName(uniqueEnvironmentName(Strings.environmentDemoName, existing));
      setNameSource('suggested');
      setTruncatedNotice(false);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNameTouched(true);
    setUrlTouched(true);
    if (invalid || !changed || submitting) return;
    setSubmitting(true);
    onSubmittingChange(true);
    try {
      if (editing) {
        const answer = await edit.mutateAsync({ fileName: editing.name, name: nameCheck.name, baseUrl: url });
        saveNotice.success(Messages.changesSaved);
        if (answer.warning) toast.warning(answer.warning);
        logActivity({ type: 'environment.edit', detail: { renamed: renaming } });
      } else {
        const env = await create.mutateAsync({ name: nameCheck.name, baseUrl: url });
        toast.success(Strings.environmentCreated(nameCheck.name));
        logActivity({ type: 'environment.create', detail: { demo } });
        onCreated?.(env.name);
      }
      onOpenChange(false);
    } catch (error) {
      // Issue 23 departs from spec 01 §4 ("on failure it closes and clears silently"): the dialog
      // stays open with what was typed and says why, so a name someone else just took, or a
      // server that was briefly away, costs one change and a second Save, not retyping.
      setRefusal(errorMessage(error));
    } finally {
      setSubmitting(false);
      onSubmittingChange(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" aria-busy={submitting || undefined}>
      {!editing && (
        <label className="flex w-fit cursor-pointer items-center gap-2.5 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={demo}
            disabled={submitting}
            onChange={(event) => onDemoChange(event.target.checked)}
            className="focus-ring size-4 rounded accent-brand-600"
          />
          {Strings.environmentUseDemo}
        </label>
      )}
      <TextField
        label={Strings.environmentUrl}
        name="url"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={Strings.projectUrlPlaceholder}
        value={url}
        readOnly={demo}
        disabled={submitting}
        autoFocus={!editing}
        onChange={(event) => onUrlChange(event.target.value)}
        onBlur={() => url !== '' && setUrlTouched(true)}
        error={urlError}
      />
      <TextField
        label={Strings.environmentName}
        name="name"
        autoComplete="off"
        spellCheck={false}
        value={name}
        disabled={submitting}
        autoFocus={Boolean(editing)}
        onChange={(event) => onNameChange(event.target.value)}
        onBlur={onNameBlur}
        error={nameError}
        warning={truncatedNotice ? EnvironmentMessages.nameTooLong : renaming ? EnvironmentMessages.renameWarning : null}
      />
      {refusal && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal}
        </p>
      )}
      <div className="-mx-6 mt-2 -mb-4 flex items-center justify-end gap-3 rounded-b-2xl border-t border-slate-100 bg-slate-50/70 px-6 py-4">
        <Button variant="secondary" disabled={submitting} onClick={() => onOpenChange(false)}>
          {Strings.cancel}
        </Button>
        <Button type="submit" disabled={submitting || invalid} disabledReason={submitting ? null : blockedReason}>
          {submitting && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          {editing ? (submitting ? Strings.saving : Strings.save) : submitting ? Strings.environmentCreating : Strings.environmentCreate}
        </Button>
      </div>
    </form>
  );
}
