import { Limits, type Project } from '@rehearse/contract';
import { GitBranch, GitBranchPlus, Trash2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { IconButton } from '../../../components/IconButton';
import { SelectorAction, SelectorOption, SelectorPopover, useCloseSelector } from '../../../components/SelectorPopover';
import { logActivity } from '../../../lib/activity-log';
import { TruncateAt, truncate } from '../../../lib/format';
import { Strings } from '../../../lib/strings';
import { useBranches, useSelectBranch } from '../queries';

export interface BranchSelectorProps {
  project: Project;
  onCreate: () => void;
  /** Asks to delete a branch; never offered for the current branch or main. */
  onDelete: (branch: string) => void;
}

/**
 * The branch selector of private-repository projects (spec 01 §2, §4): choosing a branch saves
 * it as the last active one and goes to the dashboard. Every branch but the current one (and
 * main, which the server keeps) has a delete button.
 */
export function BranchSelector({ project, onCreate, onDelete }: BranchSelectorProps) {
  const branches = useBranches(project);
  const select = useSelectBranch(project.id);
  const navigate = useNavigate();
  const current = branches.data?.lastActiveBranch;

  const choose = (branch: string) => {
    if (branch === current) return;
    select.mutate(branch, { onError: () => toast.error(Strings.branchSelectFailed) });
    logActivity({ type: 'branch.select' });
    void navigate(`/${project.id}/dashboard`);
  };

  return (
    <SelectorPopover
      label={Strings.branchLabel}
      icon={GitBranch}
      testId="branch-selector"
      value={current ? truncate(current, ...TruncateAt.selectorLabel) : '…'}
      valueText={current ?? Strings.loading}
      title={current}
      status={
        branches.isError ? (
          <p role="alert" className="px-3 py-2 text-sm text-red-600">
            {Strings.branchesLoadFailed}
          </p>
        ) : null
      }
      footer={
        <SelectorAction icon={GitBranchPlus} onSelect={onCreate}>
          {Strings.branchCreate}
        </SelectorAction>
      }
    >
      {branches.data?.branches.map((branch) => {
        // Spec 01 §4: the current branch cannot be deleted; the server also keeps main.
        const deletable = branch !== current && branch !== Limits.defaultBranch;
        return (
          <SelectorOption
            key={branch}
            selected={branch === current}
            title={branch}
            onSelect={() => choose(branch)}
            actions={deletable ? <DeleteBranchButton branch={branch} onDelete={onDelete} /> : undefined}
          >
            {truncate(branch, ...TruncateAt.menuTitle)}
          </SelectorOption>
        );
      })}
    </SelectorPopover>
  );
}

function DeleteBranchButton({ branch, onDelete }: { branch: string; onDelete: (branch: string) => void }) {
  const close = useCloseSelector();
  return (
    <IconButton
      label={Strings.branchDelete(branch)}
      icon={Trash2}
      tone="danger"
      onClick={() => {
        close();
        onDelete(branch);
      }}
    />
  );
}
