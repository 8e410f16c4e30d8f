import { describe, expect, it } from 'vitest';
import { resolveSelection } from './selection';

const features = [
  { name: 'Checkout.feature', scenarios: [{ name: 'Pay' }, { name: 'Sign in' }] },
  { name: 'Login.feature', scenarios: [{ name: 'Sign up' }, { name: 'Sign in' }] },
];
// The last scenario looked at is elsewhere, so falling back to it would show another scenario.
const lastActive = { featureIndex: 0, scenarioIndex: 1 };

describe("the features page's ?feature=&scenario= (spec 02 §2: the planner's eye icon)", () => {
  it('opens exactly that scenario when the feature is named without its suffix', () => {
    expect(resolveSelection(features, 'Login', 'Sign in', lastActive)).toEqual({ featureIndex: 1, scenarioIndex: 1 });
  });

  it('opens exactly that scenario when the feature is named with its .feature suffix', () => {
    expect(resolveSelection(features, 'Login.feature', 'Sign in', lastActive)).toEqual({ featureIndex: 1, scenarioIndex: 1 });
    expect(resolveSelection(features, 'Login.feature', 'Sign up', lastActive)).toEqual({ featureIndex: 1, scenarioIndex: 0 });
  });

  it('opens the last active scenario without a URL naming one, and the first of a feature whose scenario is gone', () => {
    expect(resolveSelection(features, null, null, lastActive)).toEqual({ featureIndex: 0, scenarioIndex: 1 });
    expect(resolveSelection(features, 'Login', 'Gone', lastActive)).toEqual({ featureIndex: 1, scenarioIndex: 0 });
    expect(resolveSelection([], 'Login', 'Sign in', lastActive)).toBeNull();
  });
});
