import { Messages, recorderCalls, RecorderLimits } from '@rehearse/contract';
import { api, errorMessage } from '../../lib/api';
import { problemOf, type RecorderProblem } from './remote-session';

/** What the chooser's cloud start is doing: nothing yet, checking, or stopped by a problem. */
export type CloudStartState = { kind: 'idle' } | { kind: 'checking' } | { kind: 'error'; problem: RecorderProblem };

/** The calls the start checks make (the app's client; a test passes its own). */
export interface CloudStartCalls {
  activeSessions(): Promise<number>;
  /** Resolves when the cloud can open `url`; rejects with the server's message otherwise. */
  checkReachable(url: string): Promise<void>;
}

export const cloudStartCalls: CloudStartCalls = {
  activeSessions: async () => (await api.call(recorderCalls.concurrentSessions, { query: {} })).activeSessions,
  checkReachable: async (url) => {
    await api.call(recorderCalls.checkReachable, { body: { url } });
  },
};

/**
 * The checks before a cloud recorder tab opens (spec 01 §4 "In the cloud"): the user's concurrent
 * sessions, then whether the environment's URL is reachable from the cloud. Answers null when the
 * tab may open, else the problem to show under the spec's words (spec 02 §8).
 */
export async function checkCloudStart(baseUrl: string, calls: CloudStartCalls = cloudStartCalls): Promise<RecorderProblem | null> {
  try {
    if ((await calls.activeSessions()) >= RecorderLimits.maxSessionsPerUser) return problemOf(Messages.recorderMaxSessions);
    await calls.checkReachable(baseUrl);
    return null;
  } catch (error) {
    // An environment URL the check refuses as malformed cannot be reached either.
    const message = errorMessage(error);
    return problemOf(message === Messages.recorderUrlInvalid ? Messages.recorderUnreachable : message);
  }
}
