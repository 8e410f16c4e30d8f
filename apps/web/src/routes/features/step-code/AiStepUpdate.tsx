import { Messages, QUICK_PROMPTS } from '@rehearse/contract';
import { AlertTriangle, CheckCircle2, Loader2, Sparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/Button';
import { useLicence } from '../../../features/licence/LicenceProvider';
import { useGenerateStepCode } from '../../../features/scenarios/queries';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import { errorMessage } from '../../../lib/api';

/** Spec 02 §9: AI progress every 1.5 s; AI banners 2 s. */
export const AI_PROGRESS_INTERVAL_MS = 1500;
export const AI_BANNER_MS = 2000;

/**
 * AI step update (spec 02 §4, §8, §9): a free-text request or a quick prompt; while the engine
 * works the progress messages take turns every 1.5 s; then 'Done! Review the changes' (the diff
 * opens) or the error, each banner for 2 s.
 */
export function AiStepUpdate({
  projectId,
  functionName,
  fileContent,
  onResult,
}: {
  projectId: string;
  functionName: string;
  fileContent: string;
  onResult: (code: string) => void;
}) {
  const licence = useLicence();
  const generate = useGenerateStepCode(projectId);
  const [request, setRequest] = useState('');
  const [progress, setProgress] = useState(0);
  const [banner, setBanner] = useState<{ tone: 'done' | 'error'; text: string } | null>(null);
  const bannerTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!generate.isPending) return;
    setProgress(0);
    const timer = setInterval(() => setProgress((n) => Math.min(n + 1, S.aiProgress.length - 1)), AI_PROGRESS_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [generate.isPending]);

  useEffect(() => () => clearTimeout(bannerTimer.current), []);

  const show = (next: { tone: 'done' | 'error'; text: string }) => {
    setBanner(next);
    clearTimeout(bannerTimer.current);
    bannerTimer.current = setTimeout(() => setBanner(null), AI_BANNER_MS);
  };

  const send = (text: string) =>
    licence.guard(() =>
      generate.mutate(
        { request: text, functionName, fileContent },
        {
          onSuccess: (code) => {
            show({ tone: 'done', text: S.aiDone });
            onResult(code);
          },
          onError: (error) => show({ tone: 'error', text: `${Messages.aiStepUpdateFailed} (${errorMessage(error)})` }),
        },
      ),
    );

  return (
    <section aria-labelledby="ai-update-title" className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-slate-50/70 p-3">
      <h3 id="ai-update-title" className="flex items-center gap-1.5 text-sm font-semibold text-slate-800">
        <Sparkles aria-hidden="true" className="size-4 text-brand-600" />
        {S.aiTitle}
      </h3>
      <div className="flex flex-wrap gap-1.5" aria-label={S.aiQuickPrompts} role="group">
        {QUICK_PROMPTS.map((prompt) => (
          <button
            key={prompt}
            type="button"
            disabled={generate.isPending}
            onClick={() => send(prompt)}
            className="focus-ring rounded-full border border-slate-300 bg-white px-2.5 py-1 text-xs text-slate-700 hover:border-brand-400 hover:text-brand-700 disabled:opacity-50"
          >
            {prompt}
          </button>
        ))}
      </div>
      <form
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (request.trim()) send(request.trim());
        }}
      >
        <input
          value={request}
          onChange={(event) => setRequest(event.target.value)}
          aria-label={S.aiRequestLabel}
          placeholder={S.aiRequestPlaceholder}
          className="focus-ring h-9 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2.5 text-sm placeholder:text-slate-500"
        />
        <Button type="submit" size="sm" className="h-9" disabled={generate.isPending || request.trim() === ''}>
          {S.aiSend}
        </Button>
      </form>
      {generate.isPending && (
        <p role="status" className="flex items-center gap-1.5 text-sm text-slate-700" data-testid="ai-progress">
          <Loader2 aria-hidden="true" className="size-4 animate-spin" />
          {S.aiProgress[progress]}
        </p>
      )}
      {banner && (
        <p
          role={banner.tone === 'error' ? 'alert' : 'status'}
          data-testid="ai-banner"
          className={`flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm ${
            banner.tone === 'done' ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'
          }`}
        >
          {banner.tone === 'done' ? (
            <CheckCircle2 aria-hidden="true" className="size-4" />
          ) : (
            <AlertTriangle aria-hidden="true" className="size-4" />
          )}
          {banner.text}
        </p>
      )}
    </section>
  );
}
