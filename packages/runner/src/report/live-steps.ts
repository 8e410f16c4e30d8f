import { LIVE_SCREENSHOT_MAX, type LiveStep } from '@rehearse/contract';
import { MediaTypes } from '../attachments.js';
import { hideMaskedLiterals, type Envelope } from './builder.js';

/**
 * Follows cucumber's message stream and tells `onStep` of each Gherkin step as it starts and as it
 * ends (hooks are not steps a person wrote, so they are left out): what a warm runner sends the
 * server while "Run scenario" runs, for the page to show each step as it runs, with the screenshot
 * its last command took. Step texts are masked as the report masks them (screenshots are masked
 * when they are taken).
 */
export function liveSteps(onStep: (step: LiveStep) => void): (envelope: Envelope) => void {
  const keywords = new Map<string, string>();
  const pickleSteps = new Map<string, { text: string; astNodeId: string | undefined }>();
  const cases = new Map<string, Map<string, { index: number; count: number; pickleStepId: string }>>();
  const started = new Map<string, string>();
  /** The last screenshot of each running step, by attempt and step. */
  const screenshots = new Map<string, string>();
  const emit = (testCaseStartedId: string, testStepId: string, status: LiveStep['status']) => {
    const step = cases.get(started.get(testCaseStartedId) ?? '')?.get(testStepId);
    const pickleStep = step && pickleSteps.get(step.pickleStepId);
    if (!step || !pickleStep) return;
    const screenshot = status === 'running' ? undefined : screenshots.get(`${testCaseStartedId}/${testStepId}`);
    screenshots.delete(`${testCaseStartedId}/${testStepId}`);
    onStep({
      index: step.index,
      count: step.count,
      keyword: keywords.get(pickleStep.astNodeId ?? '') ?? '*',
      text: hideMaskedLiterals(pickleStep.text),
      status,
      ...(screenshot && screenshot.length <= LIVE_SCREENSHOT_MAX ? { screenshot } : {}),
    });
  };
  return (envelope) => {
    if (envelope.gherkinDocument) {
      for (const child of envelope.gherkinDocument.feature?.children ?? []) {
        const holders = [child.scenario, child.background, ...(child.rule?.children ?? []).flatMap((c) => [c.scenario, c.background])];
        for (const holder of holders) for (const step of holder?.steps ?? []) keywords.set(step.id, step.keyword.trim());
      }
    } else if (envelope.pickle) {
      for (const step of envelope.pickle.steps) pickleSteps.set(step.id, { text: step.text, astNodeId: step.astNodeIds[0] });
    } else if (envelope.testCase) {
      const steps = envelope.testCase.testSteps.filter((step) => step.pickleStepId);
      cases.set(
        envelope.testCase.id,
        new Map(steps.map((step, index) => [step.id, { index, count: steps.length, pickleStepId: step.pickleStepId! }])),
      );
    } else if (envelope.attachment) {
      const { testCaseStartedId, testStepId, mediaType, body, contentEncoding } = envelope.attachment;
      if (mediaType === MediaTypes.screenshot && testCaseStartedId && testStepId && (contentEncoding as string) === 'BASE64')
        screenshots.set(`${testCaseStartedId}/${testStepId}`, body);
    } else if (envelope.testCaseStarted) {
      started.set(envelope.testCaseStarted.id, envelope.testCaseStarted.testCaseId);
    } else if (envelope.testStepStarted) {
      emit(envelope.testStepStarted.testCaseStartedId, envelope.testStepStarted.testStepId, 'running');
    } else if (envelope.testStepFinished) {
      const status = envelope.testStepFinished.testStepResult.status.toLowerCase();
      emit(
        envelope.testStepFinished.testCaseStartedId,
        envelope.testStepFinished.testStepId,
        (['passed', 'failed', 'skipped', 'undefined', 'pending', 'ambiguous'].includes(status) ? status : 'skipped') as LiveStep['status'],
      );
    }
  };
}
