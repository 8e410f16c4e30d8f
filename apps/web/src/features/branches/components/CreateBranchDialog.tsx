import { Limits, Messages, type Project } from '@rehearse/contract';
import { LoaderCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { TextField } from '../../../components/TextField';
import { logActivity } from '../../../lib/activity-log';
import { errorMessage } from '../../../lib/api';
import { Strings } from '../../../lib/strings';
import { useBranches, useCreateBranch } from '../queries';
import { snackbar } from '../../../lib/notify';

/** Create-branch modal (spec 01 §4, §5): both names required; the new branch becomes current. */
export function CreateBranchDialog({
  open,
  onOpenChange,
  project,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project: Project;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={Strings.branchCreateTitle} testId="create-branch-dialog">
      {open && <CreateBranchForm project={project} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function CreateBranchForm({ project, onDone }: { project: Project; onDone: () => void }) {
  const branches = useBranches(project);
  const create = useCreateBranch(project.id);
  const navigate = useNavigate();
  const sourceId = useId();
  const [source, setSource] = useState(branches.data?.lastActiveBranch ?? Limits.defaultBranch);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!source.trim() || !name.trim()) {
      setError(Messages.branchFieldsMissing);
      return;
    }
    setError(null);
    create.mutate(
      { sourceBranch: source.trim(), newBranch: name.trim() },
      {
        onSuccess: () => {
          snackbar.success(Messages.createBranchSuccess);
          logActivity({ type: 'branch.create' });
          onDone();
          void navigate(`/${project.id}/dashboard`);
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={sourceId} className="text-sm font-medium text-slate-700">
          {Strings.branchSource}
        </label>
        <select
          id={sourceId}
          value={source}
          onChange={(event) => setSource(event.target.value)}
          className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-xs outline-none hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
        >
          {(branches.data?.branches ?? [Limits.defaultBranch]).map((branch) => (
            <option key={branch} value={branch}>
              {branch}
            </option>
          ))}
        </select>
      </div>
      <TextField
        label={Strings.branchNew}
        name="newBranch"
        autoComplete="off"
        spellCheck={false}
        autoFocus
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-3 pt-1">
        <Button variant="secondary" onClick={onDone} disabled={create.isPending}>
          {Strings.cancel}
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          {create.isPending ? Strings.branchCreating : Strings.branchCreate}
        </Button>
      </div>
    </form>
  );
}
