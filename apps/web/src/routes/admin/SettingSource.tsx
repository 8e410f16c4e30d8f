import type { InstanceSettingSource } from '@rehearse/contract';
import { Strings } from '../../lib/strings';

/**
 * Beside an instance setting's label: where its value comes from. A value from the environment says
 * so; a saved one offers to go back to the environment's value (shown), which the form sends as
 * `null` on save; until then the choice can be taken back.
 */
export function SettingSource({
  label,
  source,
  environmentValue,
  resetting,
  onReset,
  onKeep,
}: {
  /** The field's label, for the controls' accessible names. */
  label: string;
  source: InstanceSettingSource;
  /** The environment variable's value, as the field would show it. */
  environmentValue: string;
  /** Whether the saved value is to be cleared at the next save. */
  resetting: boolean;
  onReset: () => void;
  onKeep: () => void;
}) {
  const tag = 'rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap';
  const action = 'focus-ring rounded text-xs font-medium whitespace-nowrap text-brand-700 underline-offset-2 hover:underline';
  if (source === 'environment')
    return <span className={`ml-auto bg-slate-100 text-slate-600 ${tag}`}>{Strings.adminSettingFromEnvironment}</span>;
  if (resetting) {
    return (
      <span className="ml-auto flex items-center gap-2">
        <span className={`bg-amber-50 text-amber-800 ${tag}`}>{Strings.adminSettingEnvironmentOnSave}</span>
        <button type="button" className={action} aria-label={Strings.adminSettingKeepSavedFor(label)} onClick={onKeep}>
          {Strings.adminSettingKeepSaved}
        </button>
      </span>
    );
  }
  return (
    <span className="ml-auto flex items-center gap-2">
      <span className={`bg-brand-50 text-brand-800 ${tag}`}>{Strings.adminSettingSaved}</span>
      <button
        type="button"
        className={action}
        aria-label={Strings.adminSettingUseEnvironmentFor(environmentValue, label)}
        onClick={onReset}
      >
        {Strings.adminSettingUseEnvironment(environmentValue)}
      </button>
    </span>
  );
}
