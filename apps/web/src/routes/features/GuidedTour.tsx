import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../../components/Button';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import { placeTourCard, type Box } from './tour-placement';

/**
 * Where each of the 4 steps points (spec 01 §2: features nav, code output tab, Gherkin tab, tags).
 * The first is the sidebar's Features item; the rest are marked with data-tour in the page.
 */
const ANCHORS = ['nav a[href$="/features"]', '[data-tour="code-tab"]', '[data-tour="gherkin-tab"]', '[data-tour="tags"]'] as const;
const CARD_WIDTH = 320;
/**
 * The guided tour of the features page, for new users (`?newUser=`): 4 steps with Skip tour, Next
 * and Got it. Finishing or skipping calls `onFinish`, which removes the query parameter.
 */
export function GuidedTour({ onFinish }: { onFinish: () => void }) {
  const [step, setStep] = useState(0);
  const [box, setBox] = useState<Box | null>(null);
  const [view, setView] = useState({ width: window.innerWidth, height: window.innerHeight });
  const card = useRef<HTMLDivElement>(null);
  const [cardHeight, setCardHeight] = useState(200);

  useLayoutEffect(() => {
    const measure = () => {
      const anchor = document.querySelector(ANCHORS[step]!);
      const rect = anchor?.getBoundingClientRect();
      setBox(rect && rect.width > 0 ? { top: rect.top, left: rect.left, width: rect.width, height: rect.height } : null);
      setView({ width: window.innerWidth, height: window.innerHeight });
      if (card.current) setCardHeight(card.current.offsetHeight);
    };
    measure();
    // Anchors appear as the page loads and move with the window.
    const timer = setInterval(measure, 300);
    window.addEventListener('resize', measure);
    return () => {
      clearInterval(timer);
      window.removeEventListener('resize', measure);
    };
  }, [step]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onFinish();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onFinish]);

  const last = step === ANCHORS.length - 1;
  const content = S.tour[step]!;
  const place = placeTourCard(box, { width: CARD_WIDTH, height: cardHeight }, view);

  return (
    <>
      {box && (
        <div
          aria-hidden="true"
          className="pointer-events-none fixed z-40 rounded-lg ring-4 ring-brand-500 ring-offset-2"
          style={{ top: box.top - 4, left: box.left - 4, width: box.width + 8, height: box.height + 8 }}
        />
      )}
      <div
        ref={card}
        role="dialog"
        aria-labelledby="tour-title"
        aria-describedby="tour-text"
        data-testid="guided-tour"
        className="fixed z-50 flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-2xl ring-1 ring-slate-200"
        style={{ top: place.top, left: place.left, width: CARD_WIDTH }}
      >
        <div className="flex items-center justify-between">
          <h2 id="tour-title" className="text-sm font-semibold text-slate-900">
            {content.title}
          </h2>
          <span className="text-xs text-slate-500">{S.tourStep(step + 1, ANCHORS.length)}</span>
        </div>
        <p id="tour-text" className="text-sm text-slate-600">
          {content.text}
        </p>
        <div className="flex justify-end gap-2">
          {!last && (
            <Button variant="ghost" size="sm" onClick={onFinish}>
              {S.tourSkip}
            </Button>
          )}
          <Button size="sm" onClick={() => (last ? onFinish() : setStep(step + 1))} autoFocus>
            {last ? S.tourDone : S.tourNext}
          </Button>
        </div>
      </div>
    </>
  );
}

/**
 * On a project without scenarios, what the tour points at: an example scenario's tags and its
 * Gherkin file and Code output views, as the page shows them once the first scenario exists.
 */
export function TourPreview() {
  return (
    <figure
      aria-label={S.tourPreviewLabel}
      className="mt-6 w-full max-w-xl rounded-xl border border-dashed border-slate-300 bg-white text-left shadow-xs"
      data-testid="tour-preview"
    >
      <figcaption className="border-b border-slate-100 px-4 py-3">
        <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{S.tourPreviewCaption}</p>
        <p className="mt-1 text-sm font-semibold text-slate-900">{S.tourPreviewScenario}</p>
        <ul className="mt-2 flex gap-1.5" data-tour="tags" aria-label={S.tourPreviewTags}>
          <li className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">@smoke</li>
          <li className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">@checkout</li>
        </ul>
      </figcaption>
      <div className="flex gap-1 border-b border-slate-200 px-4 text-sm font-medium">
        <span data-tour="gherkin-tab" className="-mb-px border-b-2 border-brand-600 px-3 py-2 text-brand-700">
          {S.viewGherkin}
        </span>
        <span data-tour="code-tab" className="-mb-px border-b-2 border-transparent px-3 py-2 text-slate-600">
          {S.viewCode}
        </span>
      </div>
      <pre className="overflow-x-auto px-4 py-3 font-mono text-xs text-slate-700">{S.tourPreviewGherkin}</pre>
    </figure>
  );
}
