import type { Project } from '@rehearse/contract';
import { GitBranch, GitBranchPlus } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { SelectorAction, SelectorOption, SelectorPopover } from '../../../components/SelectorPopover';
import { logActivity } from '../../../lib/activity-log';
import { TruncateAt, truncate } from '../../../lib/format';
import { Strings } from '../../../lib/strings';
import { useBranches, useSelectBranch } from '../queries';

/**
 * The branch selector of private-repository projects (spec 01 §2, §4): choosing a branch saves
 * it as the last active one and goes to the dashboard.
 */
export function BranchSelector({ project, onCreate }: { project: Project; onCreate: () => void }) {
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
      {branches.data?.branches.map((branch) => (
        <SelectorOption key={branch} selected={branch === current} title={branch} onSelect={() => choose(branch)}>
          {truncate(branch, ...TruncateAt.menuTitle)}
        </SelectorOption>
      ))}
    </SelectorPopover>
  );
}
