import { z } from 'zod';
import { LiveStep } from './run-result.js';

/** Socket.io is mounted on both paths the spec implies. */
export const SocketPaths = ['/ws', '/api/storage/ws/socket.io'] as const;

export const JoinProjectRequest = z.object({ projectId: z.uuid() });

/** Something about the project changed (members, tokens, ...); `what` names what. */
export const ProjectChangedEvent = z.object({ projectId: z.string(), what: z.string() });
/** A run report was uploaded: the reports list and dashboard counts are stale (spec 01 §4). */
export const UploadReportEvent = z.object({ projectId: z.string(), runId: z.string(), reportLink: z.string() });
/** A recording was published as a scenario: the features count is stale once the workspace settles (spec 01 §4). */
export const PublishScenarioEvent = z.object({ projectId: z.string(), featureName: z.string(), scenarioName: z.string() });
/** A "Run scenario" job changed state. */
export const ScenarioJobEvent = z.object({ projectId: z.string(), jobId: z.string(), state: z.string(), runId: z.string().nullable() });
/** A step of a "Run scenario" job started or ended (sent while the job runs on a warm runner). */
export const ScenarioJobStepEvent = z.object({ projectId: z.string(), jobId: z.string(), step: LiveStep });
/** What `statusUpdate:{executionId}` carries: live counters of a running execution (spec 02 §7). */
export const ExecutionStatus = z.object({
  executionId: z.string(),
  runId: z.string().nullable(),
  running: z.boolean(),
  totalScenarios: z.number(),
  scenariosPassed: z.number(),
  scenariosFailed: z.number(),
  /** Scenarios that could not run (an infrastructure error after their last attempt): neither passed nor failed. */
  scenariosErrored: z.number(),
});
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;
/** The project's full execution list after any create, update, delete, run or halt. */
export const CrudUpdateEvent = z.object({ projectId: z.string(), executions: z.array(z.unknown()) });

/** Events the server sends to clients in a project's room; clients check each on receipt (`ProjectServerEventSchemas`). */
export interface ServerToClientEvents {
  projectChanged: (payload: z.infer<typeof ProjectChangedEvent>) => void;
  upload_report: (payload: z.infer<typeof UploadReportEvent>) => void;
  publish_scenario: (payload: z.infer<typeof PublishScenarioEvent>) => void;
  scenario_job: (payload: z.infer<typeof ScenarioJobEvent>) => void;
  scenario_job_step: (payload: z.infer<typeof ScenarioJobStepEvent>) => void;
  /** Sent as `statusUpdate:{executionId}` to subscribers of the project's execution status; see `executionStatusEvent`. */
  [event: `statusUpdate:${string}`]: (payload: ExecutionStatus) => void;
  crudUpdate: (payload: z.infer<typeof CrudUpdateEvent>) => void;
}

/** The schema of each named event of a project's room (`statusUpdate:{id}` carries an `ExecutionStatus`). */
export const ProjectServerEventSchemas = {
  projectChanged: ProjectChangedEvent,
  upload_report: UploadReportEvent,
  publish_scenario: PublishScenarioEvent,
  scenario_job: ScenarioJobEvent,
  scenario_job_step: ScenarioJobStepEvent,
  crudUpdate: CrudUpdateEvent,
} as const;

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
