import { describe, expect, it } from 'vitest';
import { clock, hasUnpublishedSteps, isLive, problemOf, stepsKey, viewportFor } from './remote-session';

describe('the remote recorder error screens (spec 02 §8)', () => {
  it('shows the maximum-sessions title above its text', () => {
    const text = 'Only 2 concurrent sessions per user are allowed. Please end ongoing sessions and try again.';
    expect(problemOf(text)).toEqual({ title: 'You have reached the maximum number of sessions', text });
  });

  it('shows the unreachable-environment title above its text', () => {
    const text =
      'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.';
    expect(problemOf(text)).toEqual({ title: 'Your environment is not reachable from the cloud', text });
  });

  it('shows an overloaded server under the session-load title', () => {
    const text = 'Server is overloaded with recorder requests, please try again at a later time';
    expect(problemOf(text)).toEqual({ title: 'Session could not be loaded', text });
  });

  it('shows any other failure as the internal cloud error, not the raw message', () => {
    expect(problemOf('ECONNRESET')).toEqual({
      title: 'Session could not be loaded',
      text: 'An error occured while starting the session, please try again. If the issue persists, switch to local recording.',
    });
  });
});

describe('the countdown', () => {
  it('shows minutes and seconds, two digits each', () => {
    expect(clock(9 * 60_000 + 5_400)).toBe('09:05');
  });

  it('stops at 00:00 once the time is up', () => {
    expect(clock(-3000)).toBe('00:00');
  });
});

describe('the stream', () => {
  it('is live while connected, published or reconnecting, and not before or after', () => {
    const phases = ['creating', 'preparing', 'connected', 'reconnecting', 'published', 'ended', 'error'] as const;
    expect(phases.filter(isLive)).toEqual(['connected', 'reconnecting', 'published']);
  });

  it('sizes the remote page to the display area, within 800×600 and 1600×1200', () => {
    expect(viewportFor({ width: 1023.6, height: 700.2 })).toEqual({ width: 1024, height: 700 });
    expect(viewportFor({ width: 500, height: 300 })).toEqual({ width: 800, height: 600 });
    expect(viewportFor({ width: 2500, height: 1500 })).toEqual({ width: 1600, height: 1200 });
  });
});

describe('whether ending a session would discard steps', () => {
  const open = { type: 'navigate', url: 'http://shop.test/' };
  const click = { type: 'click', target: 'Add to cart' };
  const see = { type: 'verifyText', text: 'Added' };

  it('asks when steps beyond the opening page were never published', () => {
    expect(hasUnpublishedSteps([open, click], null)).toBe(true);
  });

  it('does not ask with only the opening page recorded', () => {
    expect(hasUnpublishedSteps([open], null)).toBe(false);
  });

  it('does not ask when what is recorded is what was published', () => {
    expect(hasUnpublishedSteps([open, click], stepsKey([open, click]))).toBe(false);
  });

  it('asks again after a step is added or undone since publishing', () => {
    const published = stepsKey([open, click]);
    expect(hasUnpublishedSteps([open, click, see], published)).toBe(true);
    expect(hasUnpublishedSteps([open], stepsKey([open, click]))).toBe(false);
    expect(hasUnpublishedSteps([open, see], published)).toBe(true);
  });
});
