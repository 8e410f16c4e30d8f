import { ExecutionStatus, executionStatusEvent, type RunDetails, type RunExecution } from '@rehearse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { appSocket, checked } from '../../lib/socket';
import { reportKeys } from './queries';

/**
 * At most one refetch of a followed run report per this many milliseconds: a run of many short
 * scenarios ends jobs faster than the report (every test case with its steps) is worth reloading.
 */
export const LIVE_REPORT_REFETCH_MS = 1000;

/**
 * Follows the execution a run report belongs to while it still appends scenarios (spec 02 §4
 * "Live updates"): subscribes to `statusUpdate:{executionId}`, refetches the run (throttled) on
 * each update and once more when it ends, and stops listening once the report says it ended.
 * Answers the freshest counters: the socket's, ahead of the report's until the refetch lands.
 */
export function useLiveRunExecution(projectId: string, run: RunDetails | undefined): RunExecution | null {
  const client = useQueryClient();
  const reported = run?.execution ?? null;
  const runId = run?.id ?? '';
  const followed = reported?.running ? reported.executionId : null;
  // The socket's counters; which scenarios errored (and why) come with the report only.
  const [live, setLive] = useState<(ExecutionStatus & { runId: string }) | null>(null);

  useEffect(() => {
    if (!followed) return;
    const socket = appSocket();
    const event = executionStatusEvent(followed);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastRefetch = 0;
    const refetch = () => {
      timer = undefined;
      lastRefetch = Date.now();
      void client.invalidateQueries({ queryKey: reportKeys.run(runId) });
    };
    const onStatus = checked(ExecutionStatus, (status) => {
      // The same execution may already run again: only this run's counters belong here.
      if (status.runId !== runId) return;
      setLive({ ...status, runId });
      if (!status.running) {
        clearTimeout(timer);
        refetch();
        return;
      }
      timer ??= setTimeout(refetch, Math.max(0, lastRefetch + LIVE_REPORT_REFETCH_MS - Date.now()));
    });
    // An update sent between the report's answer and the subscription would be lost (the last
    // one for good): once subscribed, read the report again.
    const subscribe = () => socket.emit('subscribeToExecutionStatus', { projectId }, () => refetch());
    socket.on(event, onStatus);
    socket.on('connect', subscribe);
    if (socket.connected) subscribe();
    return () => {
      clearTimeout(timer);
      socket.off(event, onStatus);
      socket.off('connect', subscribe);
    };
  }, [followed, runId, projectId, client]);

  if (!reported) return null;
  // Counters only grow during a run: the socket's are fresher unless the report caught up.
  if (live && live.executionId === reported.executionId && reported.running && finished(live) >= finished(reported))
    return { ...live, erroredScenarios: reported.erroredScenarios };
  return reported;
}

/** Scenarios of the execution that have ended so far: passed, failed, or ended in an infrastructure error. */
export function finished(status: Pick<RunExecution, 'scenariosPassed' | 'scenariosFailed' | 'scenariosErrored'>): number {
  return status.scenariosPassed + status.scenariosFailed + status.scenariosErrored;
}
