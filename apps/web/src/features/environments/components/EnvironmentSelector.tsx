import { environmentDisplayName, type EnvironmentEntry } from '@rehearse/contract';
import { Globe, Pencil, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { IconButton } from '../../../components/IconButton';
import { SelectorAction, SelectorOption, SelectorPopover, useCloseSelector } from '../../../components/SelectorPopover';
import { logActivity } from '../../../lib/activity-log';
import { TruncateAt, truncate } from '../../../lib/format';
import { Strings } from '../../../lib/strings';
import type { WorkspaceScope } from '../../workspace/scope';
import { currentEnvironment, useEnvironments, useSelectEnvironment } from '../queries';

export interface EnvironmentSelectorProps {
  scope: WorkspaceScope;
  onAdd: () => void;
  onEdit: (entry: EnvironmentEntry) => void;
  onDelete: (entry: EnvironmentEntry) => void;
}

/**
 * The top bar's environment selector (spec 01 §2, §4): names without `.json`; choosing one saves
 * it as the last active environment. Each row can be edited; every row but the current one can
 * be deleted.
 */
export function EnvironmentSelector({ scope, onAdd, onEdit, onDelete }: EnvironmentSelectorProps) {
  const environments = useEnvironments(scope);
  const select = useSelectEnvironment(scope);
  const current = currentEnvironment(environments.data);
  const currentName = current ? environmentDisplayName(current.name) : Strings.environmentNone;

  const choose = (entry: EnvironmentEntry) => {
    if (entry.name === current?.name) return;
    select.mutate(entry.name, { onError: () => toast.error(Strings.environmentSelectFailed) });
    logActivity({ type: 'environment.select' });
  };

  return (
    <SelectorPopover
      label={Strings.environmentLabel}
      icon={Globe}
      testId="environment-selector"
      value={environments.isPending ? '…' : truncate(currentName, ...TruncateAt.selectorLabel)}
      valueText={environments.isPending ? Strings.loading : currentName}
      title={current ? `${currentName} · ${current.data.baseUrl}` : undefined}
      disabled={!scope.ready}
      status={
        environments.isError ? (
          <p role="alert" className="px-3 py-2 text-sm text-red-600">
            {Strings.environmentsLoadFailed}
          </p>
        ) : environments.data?.allEnv.length === 0 ? (
          <p className="px-3 py-2 text-sm text-slate-500">{Strings.environmentListEmpty}</p>
        ) : null
      }
      footer={
        <SelectorAction icon={Plus} onSelect={onAdd}>
          {Strings.environmentAdd}
        </SelectorAction>
      }
    >
      {environments.data?.allEnv.map((entry) => {
        const display = environmentDisplayName(entry.name);
        const isCurrent = entry.name === current?.name;
        return (
          <SelectorOption
            key={entry.name}
            selected={isCurrent}
            title={`${display} · ${entry.data.baseUrl}`}
            onSelect={() => choose(entry)}
            actions={<RowActions entry={entry} isCurrent={isCurrent} onEdit={onEdit} onDelete={onDelete} />}
          >
            <span className="block truncate">{truncate(display, ...TruncateAt.menuTitle)}</span>
            <span className="block truncate text-xs font-normal text-slate-500">{entry.data.baseUrl}</span>
          </SelectorOption>
        );
      })}
    </SelectorPopover>
  );
}

function RowActions({
  entry,
  isCurrent,
  onEdit,
  onDelete,
}: {
  entry: EnvironmentEntry;
  isCurrent: boolean;
  onEdit: (entry: EnvironmentEntry) => void;
  onDelete: (entry: EnvironmentEntry) => void;
}) {
  const close = useCloseSelector();
  const display = environmentDisplayName(entry.name);
  return (
    <>
      <IconButton
        label={Strings.environmentEdit(display)}
        icon={Pencil}
        onClick={() => {
          close();
          onEdit(entry);
        }}
      />
      {/* Spec 01 §4: the current environment has no delete button. */}
      {!isCurrent && (
        <IconButton
          label={Strings.environmentDelete(display)}
          icon={Trash2}
          tone="danger"
          onClick={() => {
            close();
            onDelete(entry);
          }}
        />
      )}
    </>
  );
}
