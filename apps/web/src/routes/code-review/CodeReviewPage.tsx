import type { OversightItem } from '@rehearse/contract';
import { CheckCircle2, ImageOff } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Modal } from '../../components/Modal';
import { FullPageSpinner } from '../../components/Spinner';
import { DiffView } from '../../features/code-review/DiffView';
import { useCodeReviewMutations, useCodeReviews } from '../../features/code-review/queries';
import { useLicence } from '../../features/licence/LicenceProvider';
import { useScreenshot } from '../../features/reports/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

/**
 * Code Review (spec 01 §2, §4): fixes proposed by self-healing, newest first, each with its
 * screenshot, feature and scenario, date, See changes (diff), Discard (confirm → archive) and
 * Accept changes (a commit in the workspace; the item leaves 3 s later). Both decisions are
 * blocked by the licence dialog while the project is expired.
 */
export function CodeReviewPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${Strings.reviewTitle} · ${project.name}`);
  const reviews = useCodeReviews(project.id);
  const { archive, accept } = useCodeReviewMutations(project.id);
  const licence = useLicence();
  const [diff, setDiff] = useState<OversightItem | null>(null);
  const [discarding, setDiscarding] = useState<OversightItem | null>(null);
  const [accepted, setAccepted] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState<Record<string, string>>({});

  const onAccept = (item: OversightItem) =>
    licence.guard(() => {
      setFailed(({ [item._id]: _gone, ...rest }) => rest);
      accept.mutate(item, {
        onSuccess: ({ commit }) => setAccepted((all) => ({ ...all, [item._id]: commit })),
        onError: (error) => setFailed((all) => ({ ...all, [item._id]: errorMessage(error) })),
      });
    });

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-5 px-8 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.reviewTitle}</h1>
        <p className="mt-1 text-sm text-slate-600">{Strings.reviewIntro}</p>
      </div>
      {licence.expired && (
        <p role="note" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {Strings.reviewLicence}
        </p>
      )}
      {reviews.isPending ? (
        <FullPageSpinner label={Strings.reviewLoading} />
      ) : reviews.isError ? (
        <ErrorPanel title={Strings.reviewLoadFailed} detail={errorMessage(reviews.error)} onRetry={() => void reviews.refetch()} />
      ) : reviews.data.length === 0 ? (
        <p role="status" className="rounded-xl border border-slate-200 bg-white px-4 py-14 text-center text-sm text-slate-600">
          {Strings.reviewEmpty}
        </p>
      ) : (
        <ul className="flex flex-col gap-4">
          {reviews.data.map((item) => {
            const tc = item.report.testCases[0];
            const at = formatDateTime(item.createdAt);
            const commit = accepted[item._id];
            return (
              <li key={item._id} data-testid="review-item" className="flex gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-xs">
                <ReviewShot item={item} />
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <p className="text-xs text-slate-600">{tc?.featureName ?? item.file}</p>
                  <h2 className="truncate font-semibold text-slate-900">{tc?.scenarioName ?? item.name}</h2>
                  <p className="text-xs text-slate-600">
                    <time dateTime={item.createdAt}>
                      {at.date} {at.time}
                    </time>{' '}
                    · {Strings.reviewClassification(item.classification)} · {Strings.reviewConfidence(Math.round(item.confidence * 100))} ·{' '}
                    <span className="font-mono">{item.file}</span>
                  </p>
                  {item.healed.length > 0 && (
                    <ul aria-label={Strings.reviewHealedList} className="mt-1 flex flex-col gap-1" data-testid="review-healed">
                      {item.healed.map((healed) => (
                        <li key={healed.key} className="rounded-lg bg-slate-50 px-3 py-1.5 text-sm">
                          <span className="block truncate font-medium text-slate-900" title={healed.step}>
                            {Strings.reviewHealedStep(healed.stepNumber, healed.step)}
                          </span>
                          <span className="block truncate text-slate-700">
                            {Strings.reviewHealedElement(healed.element, healed.foundAs)}{' '}
                            <span className="font-mono text-xs text-slate-500">({healed.key})</span>
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                  <Link
                    to={`/${project.id}/run-report/${item.runId}`}
                    className="focus-ring w-fit rounded text-xs font-semibold text-brand-700 hover:underline"
                  >
                    {Strings.reviewOpenRun}
                  </Link>
                  {failed[item._id] && (
                    <p role="alert" className="text-sm text-red-700">
                      {failed[item._id]}
                    </p>
                  )}
                  <div className="mt-2 flex flex-wrap items-center gap-2">
                    <Button size="sm" variant="secondary" onClick={() => setDiff(item)}>
                      {Strings.reviewSeeChanges}
                    </Button>
                    {commit ? (
                      <span role="status" className="inline-flex items-center gap-1.5 text-sm font-medium text-emerald-800">
                        <CheckCircle2 aria-hidden="true" className="size-4" />
                        {Strings.reviewAccepted} · {Strings.reviewAcceptedNote(commit)}
                      </span>
                    ) : (
                      <>
                        <Button size="sm" variant="ghost" onClick={() => licence.guard(() => setDiscarding(item))}>
                          {Strings.reviewDiscard}
                        </Button>
                        <Button size="sm" disabled={accept.isPending && accept.variables._id === item._id} onClick={() => onAccept(item)}>
                          {accept.isPending && accept.variables._id === item._id ? Strings.reviewAccepting : Strings.reviewAccept}
                        </Button>
                      </>
                    )}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Modal
        open={diff !== null}
        onOpenChange={(open) => !open && setDiff(null)}
        title={diff ? Strings.reviewChangesTitle(diff.file) : ''}
        size="lg"
        testId="review-diff"
      >
        {diff && <DiffView before={diff.before} after={diff.after} label={Strings.reviewChangesTitle(diff.file)} />}
      </Modal>
      <ConfirmDeleteDialog
        open={discarding !== null}
        onOpenChange={(open) => !open && setDiscarding(null)}
        what={Strings.reviewDiscard}
        name={discarding?.name ?? ''}
        title={Strings.reviewDiscardTitle}
        question={Strings.reviewDiscardQuestion}
        confirmLabel={Strings.reviewDiscard}
        busyLabel={Strings.reviewDiscarding}
        onConfirm={async () => {
          if (discarding) await archive.mutateAsync(discarding);
        }}
      />
    </div>
  );
}

function ReviewShot({ item }: { item: OversightItem }) {
  const id = item.afterScreenshotId ?? item.beforeScreenshotId ?? undefined;
  const shot = useScreenshot({ kind: 'run', runId: item.runId }, item.scenario_id, id);
  return (
    <div className="flex h-28 w-44 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
      {shot.data ? (
        <img src={shot.data} alt={`${item.name}`} className="h-full w-full object-cover object-top" />
      ) : (
        <span className="flex flex-col items-center gap-1 text-xs text-slate-600">
          <ImageOff aria-hidden="true" className="size-5" />
          {Strings.reviewNoScreenshot}
        </span>
      )}
    </div>
  );
}
