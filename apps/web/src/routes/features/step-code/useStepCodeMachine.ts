import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import {
  initialStepCodeState,
  transition,
  type StepCodeContext,
  type StepCodeEffect,
  type StepCodeEvent,
  type StepCodeState,
} from '../../../features/scenarios/step-code-machine';

/** How the component carries out the machine's effects; each reports back through `send`. */
export type EffectRunner = (effect: StepCodeEffect, send: (event: StepCodeEvent) => void) => void;

/**
 * Runs the step code machine: `contextOf` says which stored code a state is about; `send` applies an event to the current state (read from a ref, so an
 * async result applies to the state it arrives in, not the one its request saw) and runs the effect
 * the transition names.
 */
export function useStepCodeMachine(contextOf: (state: StepCodeState) => StepCodeContext, runEffect: EffectRunner) {
  const [state, setState] = useState<StepCodeState>(initialStepCodeState);
  const current = useRef(state);
  // The latest context and runner, for events sent from async callbacks after a re-render.
  const latest = useRef({ contextOf, runEffect });
  useLayoutEffect(() => {
    latest.current = { contextOf, runEffect };
  });

  const send = useCallback((event: StepCodeEvent) => {
    const { state: next, effect } = transition(current.current, event, latest.current.contextOf(current.current));
    current.current = next;
    setState(next);
    if (effect) latest.current.runEffect(effect, send);
  }, []);

  return { state, send };
}
