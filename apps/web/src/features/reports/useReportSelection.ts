import type { StoredTestCase } from '@rehearse/contract';
import { useEffect, useMemo, useState } from 'react';
import { defaultCommandIndex, defaultStepIndex, defaultTab } from './report-rules';

/**
 * Which step, command and detail tab a scenario report shows (spec 02 §4): it opens on the default
 * step, command and tab of the rules, a newly chosen step opens on its own defaults, and Previous /
 * Next walk every command of the scenario across its steps.
 */
export function useReportSelection(testCase: StoredTestCase) {
  const steps = testCase.steps;
  const [stepIndex, setStepIndex] = useState(() => defaultStepIndex(steps));
  const step = steps[stepIndex];
  const [commandIndex, setCommandIndex] = useState(() => defaultCommandIndex(step?.commands ?? []));
  const [tab, setTab] = useState<string>(() => (step ? defaultTab(step.networkData, step.webLog) : 'screenshot'));

  // Another scenario of the same run reuses the report: start again from its defaults.
  useEffect(() => {
    const first = defaultStepIndex(testCase.steps);
    const firstStep = testCase.steps[first];
    setStepIndex(first);
    setCommandIndex(defaultCommandIndex(firstStep?.commands ?? []));
    setTab(firstStep ? defaultTab(firstStep.networkData, firstStep.webLog) : 'screenshot');
  }, [testCase]);

  const selectStep = (index: number) => {
    const next = steps[index];
    setStepIndex(index);
    setCommandIndex(defaultCommandIndex(next?.commands ?? []));
    setTab(next ? defaultTab(next.networkData, next.webLog) : 'screenshot');
  };

  const selectCommand = (index: number, ci: number) => {
    if (index !== stepIndex) selectStep(index);
    setCommandIndex(ci);
  };

  // Commands across all steps, so Previous / Next walk the whole scenario.
  const flat = useMemo(() => steps.flatMap((s, si) => s.commands.map((_, ci) => [si, ci] as const)), [steps]);
  const position = flat.findIndex(([si, ci]) => si === stepIndex && ci === commandIndex);
  const go = (delta: number) => {
    const target = flat[position + delta];
    if (!target) return;
    if (target[0] !== stepIndex) selectStep(target[0]);
    setCommandIndex(target[1]);
  };

  return {
    stepIndex,
    step,
    commandIndex,
    command: step?.commands[commandIndex],
    tab,
    setTab,
    selectStep,
    selectCommand,
    previous: () => go(-1),
    next: () => go(1),
    hasPrevious: position > 0,
    hasNext: position >= 0 && position < flat.length - 1,
  };
}
