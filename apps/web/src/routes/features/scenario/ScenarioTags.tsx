import * as Popover from '@radix-ui/react-popover';
import { Plus, Tag, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/Button';
import { useLicence } from '../../../features/licence/LicenceProvider';
import { useSetScenarioTags } from '../../../features/scenarios/queries';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import type { WorkspaceScope } from '../../../features/workspace/scope';
import { errorMessage } from '../../../lib/api';

/** The scenario's own tags, each with a remove button, and the Add tag popover. */
export function ScenarioTags({
  scope,
  featureName,
  scenarioIndex,
  tags,
}: {
  scope: WorkspaceScope;
  featureName: string;
  scenarioIndex: number;
  tags: string[];
}) {
  const licence = useLicence();
  const setTags = useSetScenarioTags(scope);
  const [tagOpen, setTagOpen] = useState(false);
  const [tagText, setTagText] = useState('');
  const [tagError, setTagError] = useState<string | null>(null);

  const saveTags = async (next: string[]) => {
    try {
      await setTags.mutateAsync({ featureName, scenarioIndex, tags: next });
      return true;
    } catch (error) {
      setTagError(errorMessage(error));
      toast.error(`${S.tagsSaveFailed}: ${errorMessage(error)}`);
      return false;
    }
  };

  const addTag = async () => {
    const tag = tagText.trim().replace(/^@?/, '@');
    if (tag === '@') return;
    if (tags.includes(tag)) {
      setTagOpen(false);
      return;
    }
    if (await saveTags([...tags, tag])) {
      setTagText('');
      setTagError(null);
      setTagOpen(false);
    }
  };

  return (
    <ul className="mt-2 flex flex-wrap items-center gap-1.5" aria-label="Tags" data-tour="tags">
      {tags.map((tag) => (
        <li key={tag} className="flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-800">
          {tag}
          <button
            type="button"
            aria-label={S.removeTag(tag)}
            onClick={() => licence.guard(() => void saveTags(tags.filter((t) => t !== tag)))}
            className="focus-ring flex size-4 items-center justify-center rounded-full hover:bg-brand-100"
          >
            <X aria-hidden="true" className="size-3" />
          </button>
        </li>
      ))}
      <li>
        <Popover.Root open={tagOpen} onOpenChange={setTagOpen}>
          <Popover.Trigger asChild>
            <button
              type="button"
              className="focus-ring flex items-center gap-1 rounded-full border border-dashed border-slate-300 px-2.5 py-0.5 text-xs font-medium text-slate-600 hover:border-brand-400 hover:text-brand-700"
            >
              <Tag aria-hidden="true" className="size-3" />
              {S.addTag}
            </button>
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content
              align="start"
              sideOffset={6}
              className="z-40 w-64 rounded-xl border border-slate-200 bg-white p-3 shadow-lg"
              aria-label={S.addTag}
            >
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  licence.guard(() => void addTag());
                }}
                className="flex flex-col gap-2"
              >
                <label className="text-xs font-medium text-slate-700" htmlFor="new-tag">
                  {S.tagLabel}
                </label>
                <input
                  id="new-tag"
                  value={tagText}
                  onChange={(event) => {
                    setTagText(event.target.value);
                    setTagError(null);
                  }}
                  placeholder={S.tagPlaceholder}
                  className="focus-ring h-9 rounded-lg border border-slate-300 px-2 text-sm"
                  aria-invalid={tagError !== null}
                  aria-describedby={tagError ? 'new-tag-error' : undefined}
                />
                {tagError && (
                  <p id="new-tag-error" role="alert" className="text-xs text-red-700">
                    {tagError}
                  </p>
                )}
                <Button type="submit" size="sm" disabled={tagText.trim() === '' || setTags.isPending}>
                  <Plus aria-hidden="true" className="size-3.5" />
                  {S.addTag}
                </Button>
              </form>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      </li>
    </ul>
  );
}
