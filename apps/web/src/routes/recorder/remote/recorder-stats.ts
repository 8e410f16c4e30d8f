/**
 * Measures input-to-frame latency in the page (the bench and the e2e tests read it as
 * `window.__rehearseRecorderStats`): `latencies` from the input sent to its frame drawn, `arrivals`
 * from the input sent to its frame received (before decoding).
 */
export const recorderStats = {
  sent: new Map<number, number>(),
  latencies: [] as number[],
  arrivals: [] as number[],
  frames: 0,
  received: 0,
};
(window as unknown as { __rehearseRecorderStats?: typeof recorderStats }).__rehearseRecorderStats = recorderStats;
