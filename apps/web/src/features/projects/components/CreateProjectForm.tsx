import { isHttpUrl, Limits, Messages, suggestEnvironmentName, type Project } from '@rehearse/contract';
import { CircleAlert, GitBranch, Info, LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/TextField';
import { Tooltip } from '../../../components/Tooltip';
import { errorMessage } from '../../../lib/api';
import { demoShopUrl } from '../../../lib/links';
import { Strings } from '../../../lib/strings';
import { useMe } from '../../auth/queries';
import { useCreateProject } from '../queries';

/** The project name the URL suggests until the user types one (spec 01 §5): its host, tidied. */
export function projectNameFromUrl(url: string): string {
  // Text with spaces is not a URL being typed; suggest nothing rather than a name made of it.
  return /\s/.test(url.trim()) ? '' : suggestEnvironmentName(url);
}

/** Create is refused at a remaining project count of 0 or less (spec 01 §6). */
export function projectLimitReason(allowedProjectsCount: number | undefined): string | null {
  return allowedProjectsCount !== undefined && allowedProjectsCount <= 0 ? Messages.projectLimitReached : null;
}

export interface CreateProjectFormProps {
  /** First-time user (`newUser=1`): no Cancel, and a tooltip about the Getting Started video. */
  newUser?: boolean;
  onCancel?: () => void;
  onCreated: (project: Project) => void;
  /** Tells the surrounding dialog not to close while the project is being created. */
  onBusyChange?: (busy: boolean) => void;
}

/** The create-project form of the create screen and the create-project modal (spec 01 §2, §4, §5). */
export function CreateProjectForm({ newUser = false, onCancel, onCreated, onBusyChange }: CreateProjectFormProps) {
  const me = useMe();
  const create = useCreateProject();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [nameTyped, setNameTyped] = useState(false);
  const [urlTouched, setUrlTouched] = useState(false);
  const [nameTouched, setNameTouched] = useState(false);
  const [demo, setDemo] = useState(false);

  const busy = create.isPending;
  const urlValid = isHttpUrl(url);
  const trimmedName = name.trim();
  const nameProblem = !trimmedName
    ? Messages.projectNameEmpty
    : trimmedName.length > Limits.projectNameMax
      ? Messages.projectNameTooLong
      : null;
  const limitReason = projectLimitReason(me.data?.customAttributes.allowedProjectsCount);

  const onUrlChange = (value: string) => {
    setUrl(value);
    if (!nameTyped) setName(projectNameFromUrl(value));
  };

  const onDemoChange = (checked: boolean) => {
    setDemo(checked);
    if (checked) {
      setUrl(demoShopUrl());
      setName(Strings.projectDemoName);
      setNameTyped(false);
    } else {
      setUrl('');
      if (!nameTyped) setName('');
    }
    setUrlTouched(false);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setUrlTouched(true);
    setNameTouched(true);
    if (!urlValid || nameProblem || limitReason || busy) return;
    onBusyChange?.(true);
    create.mutate(
      { input: { name: trimmedName, url: url.trim(), demo } },
      {
        onSuccess: (project) => onCreated(project),
        onSettled: () => onBusyChange?.(false),
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-5"
      aria-busy={busy || undefined}
      aria-label={Strings.createProjectTitle}
    >
      <div className="flex flex-col gap-3">
        <TextField
          label={Strings.projectUrl}
          name="url"
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          placeholder={Strings.projectUrlPlaceholder}
          autoFocus
          value={url}
          readOnly={demo}
          disabled={busy}
          onChange={(event) => onUrlChange(event.target.value)}
          onBlur={() => url !== '' && setUrlTouched(true)}
          error={(urlTouched || url !== '') && !urlValid && !demo ? Messages.projectUrlInvalid : null}
          labelExtra={
            newUser ? (
              <Tooltip content={Strings.gettingStartedVideoHint}>
                <button
                  type="button"
                  aria-label={Strings.gettingStartedVideoLabel}
                  className="focus-ring flex size-5 items-center justify-center rounded-full text-slate-400 hover:text-brand-600"
                >
                  <Info aria-hidden="true" className="size-4" />
                </button>
              </Tooltip>
            ) : null
          }
        />
        <label className="flex w-fit cursor-pointer items-center gap-2.5 text-sm text-slate-700">
          <input
            type="checkbox"
            name="demo"
            checked={demo}
            disabled={busy}
            onChange={(event) => onDemoChange(event.target.checked)}
            className="focus-ring size-4 rounded accent-brand-600"
          />
          {Strings.projectUseDemo}
        </label>
      </div>
      <TextField
        label={Strings.projectName}
        name="name"
        autoComplete="off"
        value={name}
        disabled={busy}
        onChange={(event) => {
          setName(event.target.value);
          setNameTyped(true);
        }}
        onBlur={() => setNameTouched(true)}
        error={nameTouched || nameTyped ? nameProblem : null}
      />

      {busy && (
        <div role="status" className="flex items-center gap-3 rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-900">
          <GitBranch aria-hidden="true" className="size-5 shrink-0 animate-pulse text-brand-600" />
          {Strings.projectCreatingDetail}
        </div>
      )}
      {create.isError && (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-700">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {errorMessage(create.error)}
        </p>
      )}

      <div className="flex items-center justify-end gap-3">
        {me.data && !limitReason && (
          <p className="mr-auto text-xs text-slate-500">{Strings.projectLimit(me.data.customAttributes.allowedProjectsCount)}</p>
        )}
        {!newUser && onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            {Strings.cancel}
          </Button>
        )}
        <Button type="submit" disabled={busy || !urlValid || Boolean(nameProblem)} disabledReason={busy ? null : limitReason}>
          {busy && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          {busy ? Strings.projectCreating : Strings.projectCreate}
        </Button>
      </div>
    </form>
  );
}
