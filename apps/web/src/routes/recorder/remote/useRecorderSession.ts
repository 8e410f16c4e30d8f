import { Messages, recorderCalls, workspaceCalls, type RecorderSessionInfo } from '@rehearse/contract';
import { useCallback, useEffect, useState, type RefObject } from 'react';
import { problemOf, viewportFor, type RecorderPhase, type RecorderProblem } from '../../../features/recorder/remote-session';
import { api, errorMessage } from '../../../lib/api';

/**
 * The user's cloud recorder session for a project: re-attaches to a live one (a reload), else
 * creates one in the environment asked for (else the last active, else the first) sized to the
 * canvas's area; its phase, the time it has left, and ending it. The stream moves the phase on
 * through the returned setters.
 */
export function useRecorderSession(projectId: string, envName: string | null, canvasRef: RefObject<HTMLCanvasElement | null>) {
  const [phase, setPhase] = useState<RecorderPhase>('creating');
  const [problem, setProblem] = useState<RecorderProblem | null>(null);
  const [info, setInfo] = useState<RecorderSessionInfo | null>(null);
  const [endedMessage, setEndedMessage] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());

  const start = useCallback(async () => {
    setProblem(null);
    setPhase('creating');
    try {
      const active = await api.call(recorderCalls.activeSession, { query: { projectId } });
      let live = active.session;
      if (!live) {
        const { allEnv, lastActiveEnv } = await api.call(workspaceCalls.getEnvList, { body: { projectId } });
        const env = envName ?? lastActiveEnv ?? allEnv[0]?.name;
        if (!env) throw new Error(Messages.environmentNotFound);
        setPhase('preparing');
        const area = canvasRef.current?.parentElement?.getBoundingClientRect();
        const viewport = area ? viewportFor(area) : undefined;
        live = (await api.call(recorderCalls.createConnection, { body: { projectId, env, ...(viewport ? { viewport } : {}) } })).session;
      }
      setInfo(live);
    } catch (error) {
      setProblem(problemOf(errorMessage(error)));
      setPhase('error');
    }
  }, [projectId, envName, canvasRef]);

  useEffect(() => {
    void start();
  }, [start]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const ended = useCallback((message: string) => {
    setEndedMessage(message);
    setPhase('ended');
  }, []);

  /**
   * Ends the session, after the user confirms when steps would be lost (spec 02 §8: changes are
   * discarded); once everything recorded is published there is nothing to discard and no question.
   */
  const end = async (unpublishedSteps: boolean) => {
    if (!info || (unpublishedSteps && !window.confirm(Messages.recorderEndConfirm))) return;
    await api.call(recorderCalls.deleteConnection, { body: { connectionName: info.connectionId } }).catch(() => undefined);
    ended(Messages.recorderSessionEnded);
  };

  /** The server moved the session's expiry (kept alive, or shortened). */
  const expiresAt = useCallback((at: string) => setInfo((current) => (current ? { ...current, expiresAt: at } : current)), []);

  return {
    phase,
    setPhase,
    problem,
    info,
    endedMessage,
    timeLeft: info ? new Date(info.expiresAt).getTime() - now : 0,
    start,
    end,
    ended,
    expiresAt,
  };
}
