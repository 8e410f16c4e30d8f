import { z } from 'zod';
import { defineCall } from './call.js';
import { RunReport } from './report.js';
import { ProjectId } from './validation.js';

const Ok = z.object({ status: z.literal(true) });
const EXAMPLE_PROJECT = '00000000-0000-4000-8000-000000000000';

/** Artifacts a run may upload, and the largest one accepted (decoded bytes). */
export const ArtifactContentType = z.enum(['image/png', 'image/jpeg', 'application/zip', 'text/plain', 'application/json']);
export const ARTIFACT_MAX_BYTES = 10 * 1024 * 1024;

/** Calls the runner (CLI and workers) makes: artifacts, reports and the test data of a run. */
export const runnerCalls = {
  uploadArtifact: defineCall({
    method: 'POST',
    path: '/api/runs/upload-artifact',
    summary: 'Store a screenshot, trace or log; answers its content address',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      contentType: ArtifactContentType,
      /** Base64 of the bytes. */
      data: z.string().max(Math.ceil((ARTIFACT_MAX_BYTES * 4) / 3) + 4),
    }),
    response: Ok.extend({ id: z.string() }),
    example: { body: { projectId: EXAMPLE_PROJECT, contentType: 'text/plain', data: 'aGk=' } },
  }),
  uploadRun: defineCall({
    method: 'POST',
    path: '/api/runs/upload',
    summary: 'Store a run report; the same uploadKey twice stores it once',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      /** Idempotency key chosen by the runner (one per run). */
      uploadKey: z.string().min(8).max(100),
      branch: z.string().max(200).optional(),
      report: RunReport,
    }),
    response: Ok.extend({ runId: z.string(), reportLink: z.string() }),
    example: {
      body: {
        projectId: EXAMPLE_PROJECT,
        uploadKey: 'matrix-example-key',
        report: {
          env: { name: 'default', baseUrl: 'http://localhost:4000/demo-shop/' },
          startTime: '2026-01-01T00:00:00.000Z',
          endTime: '2026-01-01T00:00:01.000Z',
          mode: 'local',
          browser: 'chromium',
          viewport: { width: 1024, height: 768 },
          testCases: [],
        },
      },
    },
  }),
  runTestData: defineCall({
    method: 'POST',
    path: '/api/runs/test-data',
    summary: 'Plain test data values for a run (access keys only: the web app never sees secrets)',
    access: 'project',
    project: { from: 'body', field: 'projectId' },
    body: z.object({ projectId: ProjectId, environment: z.string().max(200), branch: z.string().max(200).optional() }),
    response: Ok.extend({
      testData: z.array(z.object({ key: z.string(), value: z.string(), DataType: z.enum(['string', 'secret', 'totp']) })),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT, environment: 'default' } },
  }),
} as const;
