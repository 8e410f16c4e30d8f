import { z } from 'zod';

/** Socket.io is mounted on both paths the spec implies. */
export const SocketPaths = ['/ws', '/api/storage/ws/socket.io'] as const;

export const JoinProjectRequest = z.object({ projectId: z.uuid() });

/** Events the server sends to clients in a project's room. */
export interface ServerToClientEvents {
  /** Something about the project changed (members, tokens, ...); payload names what. */
  projectChanged: (payload: { projectId: string; what: string }) => void;
  /** A run report was uploaded: the reports list and dashboard counts are stale (spec 01 §4). */
  upload_report: (payload: { projectId: string; runId: string; reportLink: string }) => void;
  /** A "Run scenario" job changed state. */
  scenario_job: (payload: { projectId: string; jobId: string; state: string; runId: string | null }) => void;
  /**
   * Live counters of a running execution (spec 02 §7), sent as the event `statusUpdate:{executionId}`
   * to subscribers of the project's execution status; see `executionStatusEvent`.
   */
  [event: `statusUpdate:${string}`]: (payload: ExecutionStatus) => void;
  /** The project's full execution list after any create, update, delete, run or halt. */
  crudUpdate: (payload: { projectId: string; executions: unknown[] }) => void;
}

/** What `statusUpdate:{executionId}` carries. */
export interface ExecutionStatus {
  executionId: string;
  runId: string | null;
  running: boolean;
  totalScenarios: number;
  scenariosPassed: number;
  scenariosFailed: number;
}

/** Event name of one execution's live counters. */
export function executionStatusEvent(executionId: string): `statusUpdate:${string}` {
  return `statusUpdate:${executionId}`;
}

/** Events clients send; every request is answered through the ack callback. */
export interface ClientToServerEvents {
  joinProject: (request: { projectId: string }, ack: (answer: { status: boolean; error?: string }) => void) => void;
  leaveProject: (request: { projectId: string }, ack: (answer: { status: boolean }) => void) => void;
  /** Start receiving `statusUpdate:{executionId}` for the project's executions (members only). */
  subscribeToExecutionStatus: (request: { projectId: string }, ack: (answer: { status: boolean; error?: string }) => void) => void;
  /** Start receiving `crudUpdate` with the project's full execution list (members only). */
  subscribeToExecutionCrud: (request: { projectId: string }, ack: (answer: { status: boolean; error?: string }) => void) => void;
}

/** Room name of a project; one function so server and tests agree. */
export function projectRoom(projectId: string): string {
  return `project:${projectId}`;
}
