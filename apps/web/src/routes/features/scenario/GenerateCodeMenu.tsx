import { ChevronDown, Sparkles } from 'lucide-react';
import { toast } from 'sonner';
import { Menu, MenuItem } from '../../../components/Menu';
import { useLicence } from '../../../features/licence/LicenceProvider';
import { useGenerateStep, useScenarioSteps } from '../../../features/scenarios/queries';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import type { WorkspaceScope } from '../../../features/workspace/scope';
import { errorMessage } from '../../../lib/api';

/**
 * The generate-code menu (spec 02 §2): asks the AI engine for code for every step that has none,
 * one step at a time; the server's error is shown as it is, and nothing is reported done that the
 * server did not write.
 */
export function GenerateCodeMenu({
  scope,
  featureName,
  scenarioName,
}: {
  scope: WorkspaceScope;
  featureName: string;
  scenarioName: string;
}) {
  const licence = useLicence();
  const steps = useScenarioSteps(scope, featureName, scenarioName);
  const generate = useGenerateStep(scope);
  const missing = (steps.data ?? []).filter((step) => !step.implemented);
  const run = () =>
    licence.guard(() => {
      if (missing.length === 0) {
        toast.info(S.allImplemented);
        return;
      }
      void (async () => {
        let done = 0;
        for (const step of missing) {
          try {
            await generate.mutateAsync({ featureName, scenarioName, stepText: step.stepName });
            done += 1;
          } catch (error) {
            toast.error(`${S.generateFailed(step.stepName)}: ${errorMessage(error)}`);
            return;
          }
        }
        toast.success(S.generated(done));
      })();
    });
  return (
    <Menu
      label={S.generateMenu}
      align="end"
      button={
        <span className="flex items-center gap-1.5">
          <Sparkles aria-hidden="true" className="size-3.5" />
          {generate.isPending ? S.generating : S.generateMenu}
          <ChevronDown aria-hidden="true" className="size-3.5" />
        </span>
      }
      buttonClassName="focus-ring flex h-8 items-center rounded-lg border border-slate-300 bg-white px-3 text-xs font-medium text-slate-800 shadow-sm hover:bg-slate-50"
    >
      <MenuItem onSelect={run} title={missing.length === 0 ? S.allImplemented : undefined}>
        {S.generateAll} ({missing.length})
      </MenuItem>
    </Menu>
  );
}
