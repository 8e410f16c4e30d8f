import type { StepInfo } from '@rehearse/contract';
import { Bot, Code2, MessageSquare, Plug, Sparkles, Video } from 'lucide-react';
import { Button } from '../../../components/Button';
import { IconButton } from '../../../components/IconButton';
import { FeatureStrings as S } from '../../../features/scenarios/strings';

/** The toolbar under the steps list, acting on the selected step (spec 02 §2). */
export function StepToolbar({
  step,
  generating,
  onGenerate,
  onComment,
  onImplementViaApi,
  onViewCode,
}: {
  step: StepInfo;
  generating: boolean;
  onGenerate: () => void;
  onComment: () => void;
  onImplementViaApi: () => void;
  onViewCode: () => void;
}) {
  return (
    <div
      role="toolbar"
      aria-label={S.toolbarLabel}
      className="flex flex-wrap items-center gap-1 rounded-lg border border-slate-200 bg-white p-1"
    >
      <IconButton label={S.aiGenerate} icon={Sparkles} onClick={onGenerate} disabled={generating} />
      <IconButton label={S.comment} icon={MessageSquare} onClick={onComment} />
      <IconButton
        label={S.implementViaApi}
        icon={Plug}
        disabledReason={step.source === 'user' ? S.implementViaApiUser : null}
        onClick={onImplementViaApi}
      />
      <IconButton label={S.viewCodeButton} icon={Code2} onClick={onViewCode} disabledReason={step.mjsFile ? null : S.builtInText} />
    </div>
  );
}

/** A step nothing implements: record it, or have the AI engine write its code. */
export function NoCodePanel({ generating, onRecord, onGenerate }: { generating: boolean; onRecord: () => void; onGenerate: () => void }) {
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-dashed border-amber-300 bg-amber-50/60 p-4" data-testid="no-code-panel">
      <div className="flex items-center gap-2 text-sm font-semibold text-amber-900">
        <Bot aria-hidden="true" className="size-4" />
        {S.noCodeTitle}
      </div>
      <p className="text-sm text-amber-900">{S.noCodeText}</p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={onRecord}>
          <Video aria-hidden="true" className="size-3.5" />
          {S.record}
        </Button>
        <Button size="sm" onClick={onGenerate} disabled={generating}>
          <Sparkles aria-hidden="true" className="size-3.5" />
          {generating ? S.generating : S.generateCode}
        </Button>
      </div>
    </div>
  );
}
