import { z } from 'zod';
import { RecordedEffect } from './effects.js';
import { defineCall, EXAMPLE_PROJECT, Ok } from './call.js';
import { Messages } from './messages.js';
import { ProjectId } from './validation.js';

/** Cloud recorder constants (spec 02 §9). */
export const RecorderLimits = {
  maxSessionsPerUser: 2,
  sessionMinutes: 30,
  /** The expiry warning shows during the last minute. */
  warningSeconds: 60,
  creationTimeoutSeconds: 45,
  heartbeatTimeoutSeconds: 5,
} as const;

/** The open-recorder page's operations (spec 01 §2, spec 02 §2): what a local launch does. */
export const RecorderOperation = z.enum(['recorder', 'ai_learn', 'execute', 'apitest', 'open_vscode'], {
  error: Messages.recorderOperationUnknown,
});
export type RecorderOperation = z.infer<typeof RecorderOperation>;

/** Where the cloud recorder's frame-and-input socket.io server listens (one per API server). */
export const RECORDER_SOCKET_PATH = '/api/recorder/ws';

/** Same shape as the runner's `LocatorCandidate` (packages/runner/src/support/elements.ts). */
export const LocatorCandidateSchema = z.union([
  z.object({
    kind: z.literal('role'),
    role: z.union([z.string().max(40), z.array(z.string().max(40)).max(8)]).optional(),
    name: z.string().max(500).optional(),
    value: z.string().max(500).optional(),
    exact: z.boolean().optional(),
  }),
  z.object({
    kind: z.enum(['testId', 'label', 'placeholder', 'altText', 'title', 'text', 'css']),
    value: z.string().max(2000),
    exact: z.boolean().optional(),
  }),
]);

/** Same shape as the runner's `ElementFingerprint`. */
export const ElementFingerprintSchema = z.object({
  tag: z.string().max(40),
  role: z.string().max(40).optional(),
  name: z.string().max(500).optional(),
  text: z.string().max(200).optional(),
  attributes: z.record(z.string(), z.string().max(500)),
  ancestors: z.array(z.string().max(40)).max(50),
  index: z.number().int().min(0).optional(),
  rect: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).optional(),
  /** The repeated row, item or card the element sits in (one of several alike), by its text: which row it belongs to. */
  container: z.object({ tag: z.string().max(40), text: z.string().max(200) }).optional(),
});

export const RecordedElement = z.object({
  name: z.string().max(500),
  locators: z.array(LocatorCandidateSchema).min(1).max(20),
  fingerprint: ElementFingerprintSchema.optional(),
  /**
   * The element as found inside the repeated row it sits in: the row's kind and text, and
   * candidates checked unique among that row's visible elements. Code generation uses them when a
   * step names the row (`… in the item containing "feed the cat"`), so the step acts in that row
   * only, never in a look-alike row elsewhere.
   */
  row: z
    .object({
      container: z.enum(['item', 'row']),
      text: z.string().max(200),
      locators: z.array(LocatorCandidateSchema).min(1).max(20),
    })
    .optional(),
});
export type RecordedElement = z.infer<typeof RecordedElement>;

export const RecordedCommandType = z.enum([
  'navigate',
  'click',
  'doubleClick',
  'rightClick',
  'hover',
  'drag',
  'fill',
  'select',
  'check',
  'uncheck',
  'press',
  'verifyText',
  'verifyVisible',
  'verifyValue',
  'verifyChecked',
  'verifyCount',
  'verifyItems',
  'verifyClass',
  'verifyNoClass',
  'verifyUrl',
  'verifyNoText',
]);
export type RecordedCommandType = z.infer<typeof RecordedCommandType>;

/**
 * What a recorder's Add assertion asks for. Visible, Value, Checked, Count, List and Class take the
 * next click on the page; Text and Not visible take typed text (Text also a click); URL takes the
 * page's address. Class records `verifyClass` or `verifyNoClass`: the class the person saw change,
 * present or gone.
 */
export const RecorderAssertion = z.enum([
  'verifyText',
  'verifyVisible',
  'verifyValue',
  'verifyChecked',
  'verifyCount',
  'verifyItems',
  'verifyClass',
  'verifyUrl',
  'verifyNoText',
]);
export type RecorderAssertion = z.infer<typeof RecorderAssertion>;

/**
 * One user action as the recorder captured it. `value` holds what was typed, chosen, pressed or
 * asserted, or a `{{key}}` test-data reference (a secret is only ever a reference).
 */
export const RecordedCommand = z.object({
  type: RecordedCommandType,
  element: RecordedElement.optional(),
  value: z.string().max(10_000).optional(),
  /** The value is a reference to a secret test-data row (or to one the user must add). */
  secret: z.boolean().optional(),
  /** What the step visibly did (set by the recorder when the next step came). */
  effect: RecordedEffect.optional(),
  /** drag: what the element was dropped on. */
  target: RecordedElement.optional(),
  /** verifyCount: how many items the list showed; `value` is the word that names the list. */
  count: z.number().int().min(0).max(100_000).optional(),
  /** verifyItems: each shown item's first line of text, in order; `value` is the word that names the list. */
  items: z.array(z.string().max(500)).max(500).optional(),
  /** Page route relative to the environment's base URL, e.g. `/login.html`. */
  path: z.string().max(2000),
  url: z.string().max(4000).optional(),
  title: z.string().max(500).optional(),
});
export type RecordedCommand = z.infer<typeof RecordedCommand>;

/**
 * A recorded step as a person reads it in a recorder's step list (secrets shown as dots): the
 * cloud recorder page and the local recorder's in-page panel show the same words.
 */
export function describeRecordedStep(command: RecordedCommand): string {
  const name = command.element?.name ?? '';
  switch (command.type) {
    case 'navigate':
      return `Open ${command.value ?? ''}`;
    case 'click':
      return `Click “${name}”`;
    case 'doubleClick':
      return `Double-click “${name}”`;
    case 'hover':
      return `Hover over “${name}”`;
    case 'rightClick':
      return `Right-click “${name}”`;
    case 'drag':
      return `Drag “${name}” to “${command.target?.name ?? ''}”`;
    case 'fill':
      return `Fill “${name}” with ${command.secret ? '••••' : `“${command.value ?? ''}”`}`;
    case 'select':
      return `Select “${command.value ?? ''}” in “${name}”`;
    case 'check':
      return `Check “${name}”`;
    case 'uncheck':
      return `Uncheck “${name}”`;
    case 'press':
      return `Press ${command.value ?? ''}${name ? ` in “${name}”` : ''}`;
    case 'verifyText':
      return `See “${command.value ?? ''}”`;
    case 'verifyVisible':
      return `“${name}” is visible`;
    case 'verifyValue':
      return `“${name}” has value “${command.value ?? ''}”`;
    case 'verifyChecked':
      return command.value === 'unchecked' ? `“${name}” is not checked` : `“${name}” is checked`;
    case 'verifyCount':
      return `See ${command.count ?? 0} “${command.value ?? ''}” ${command.count === 1 ? 'item' : 'items'}`;
    case 'verifyItems': {
      const items = command.items ?? [];
      const shown = items.slice(0, 5).map((item) => `“${item}”`);
      return `“${command.value ?? ''}” items are ${shown.length ? shown.join(', ') : 'none'}${items.length > 5 ? ` and ${items.length - 5} more` : ''}`;
    }
    case 'verifyClass':
      return `“${name}” has the class “${command.value ?? ''}”`;
    case 'verifyNoClass':
      return `“${name}” does not have the class “${command.value ?? ''}”`;
    case 'verifyUrl':
      return `URL contains “${command.value ?? ''}”`;
    case 'verifyNoText':
      return `Don’t see “${command.value ?? ''}”`;
  }
}

/** A page the recorder saw, for the application memory (DESIGN §7). */
export const RecordedPage = z.object({
  path: z.string().max(2000),
  url: z.string().max(4000),
  title: z.string().max(500),
  ariaSnapshot: z.string().max(200_000),
});
export type RecordedPage = z.infer<typeof RecordedPage>;

export const RecorderSessionState = z.enum(['creating', 'preparing', 'connected', 'published', 'ended', 'failed']);
export type RecorderSessionState = z.infer<typeof RecorderSessionState>;

export const RecorderSessionInfo = z.object({
  connectionId: z.string(),
  projectId: z.string(),
  env: z.string(),
  branch: z.string(),
  url: z.string(),
  state: RecorderSessionState,
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Where the page's socket.io client connects (same origin). */
  socketPath: z.string(),
});
export type RecorderSessionInfo = z.infer<typeof RecorderSessionInfo>;

const ConnectionId = z.uuid({ error: Messages.recorderSessionNotFound });

/** A session id nobody holds, for the permission-matrix examples. */
export const EXAMPLE_CONNECTION = '00000000-0000-4000-8000-00000000c0de';
const HttpUrl = z
  .string({ error: Messages.recorderUrlInvalid })
  .trim()
  .max(2000)
  .refine((value) => /^https?:\/\//i.test(value), Messages.recorderUrlInvalid);

export const PublishRecordingBody = z.object({
  projectId: ProjectId,
  branch: z.string().trim().max(200).optional(),
  env: z.string().trim().max(64).optional(),
  featureName: z.string().max(200),
  scenarioName: z.string().max(200),
  /** Cloud sessions publish what the session recorded; the local recorder sends its commands. */
  connectionId: z.uuid({ error: Messages.recorderSessionNotFound }).optional(),
  commands: z.array(RecordedCommand).max(2000).optional(),
  pages: z.array(RecordedPage).max(200).optional(),
  /** Re-recording one step (ai_learn): replace only the step at this index of the named scenario. */
  stepIndex: z.number().int().min(0).optional(),
});
export type PublishRecordingBody = z.infer<typeof PublishRecordingBody>;

/** Cloud recorder ("guac" in the spec's paths) and recorder publishing (spec 02 §7). */
export const recorderCalls = {
  createConnection: defineCall({
    method: 'POST',
    path: '/api/guac/create-connection',
    summary: 'Start a cloud recorder session (its own Chromium) on an environment of the project',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      env: z.string().trim().min(1).max(64),
      branch: z.string().trim().max(200).optional(),
      featureName: z.string().max(200).optional(),
      scenarioName: z.string().max(200).optional(),
      viewport: z.object({ width: z.number().int().min(320).max(3840), height: z.number().int().min(240).max(2160) }).optional(),
    }),
    response: Ok.extend({ session: RecorderSessionInfo }),
    example: { body: { projectId: EXAMPLE_PROJECT, env: 'no-such-env' } },
  }),
  activeSession: defineCall({
    method: 'GET',
    path: '/api/guac/active-session',
    summary: 'The caller’s live cloud session in a project, so a reload re-attaches to it',
    access: 'project',
    project: { from: 'query', field: 'projectId' },
    query: z.object({ projectId: ProjectId }),
    response: Ok.extend({ session: RecorderSessionInfo.nullable() }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
  websocketUrl: defineCall({
    method: 'GET',
    path: '/api/guac/websocket-url',
    summary: 'Where the page connects to stream a session',
    access: 'project',
    project: { from: 'query', field: 'connectionId', resource: 'recorderSession' },
    query: z.object({ connectionId: ConnectionId }),
    response: Ok.extend({ socketPath: z.string(), connectionId: z.string() }),
    example: { query: { connectionId: EXAMPLE_CONNECTION } },
  }),
  deleteConnection: defineCall({
    method: 'DELETE',
    path: '/api/guac/delete-connection',
    summary: 'End a cloud session and free its browser',
    access: 'project',
    project: { from: 'body', field: 'connectionName', resource: 'recorderSession' },
    body: z.object({ connectionName: ConnectionId }),
    response: Ok,
    example: { body: { connectionName: EXAMPLE_CONNECTION } },
  }),
  concurrentSessions: defineCall({
    method: 'GET',
    path: '/api/guac/concurrent-sessions-for-user',
    summary: 'How many cloud sessions the caller has open (at most 2)',
    access: 'user',
    query: z.object({ userId: z.string().max(100).optional() }),
    response: Ok.extend({ activeSessions: z.number().int(), error: z.string().optional() }),
    example: { query: {} },
  }),
  mySessions: defineCall({
    method: 'GET',
    path: '/api/guac/my-sessions',
    summary: 'The caller’s live cloud sessions in every project, oldest first, so a user at the limit can end one',
    access: 'user',
    response: Ok.extend({ sessions: z.array(RecorderSessionInfo) }),
    example: {},
  }),
  checkReachable: defineCall({
    method: 'POST',
    path: '/api/guac/check-environment-is-reachable',
    summary: 'Whether the cloud recorder can open a URL (cloud metadata addresses are always refused)',
    access: 'user',
    body: z.object({ url: HttpUrl }),
    response: Ok.extend({ reachable: z.literal(true), statusCode: z.number().int() }),
    example: { body: { url: 'http://169.254.169.254/' } },
  }),
  publish: defineCall({
    method: 'POST',
    path: '/api/recorder/publish',
    summary: 'Turn recorded commands into a scenario, step definitions and locator files: one workspace commit',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: PublishRecordingBody,
    response: Ok.extend({
      featureName: z.string(),
      scenarioName: z.string(),
      scenarioIndex: z.number().int(),
      commit: z.string(),
      files: z.array(z.string()),
      missingTestData: z.array(z.string()),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT, featureName: 'Shop', scenarioName: 'Empty', commands: [] } },
  }),
  localLaunch: defineCall({
    method: 'POST',
    path: '/api/recorder/local-launch',
    summary: 'Make a short-lived access key for one local launch and the one command that runs it on the user’s machine',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      operation: RecorderOperation,
      /** An environment of the project (name, with or without .json); the project's first when absent. */
      env: z.string().trim().max(200).optional(),
      branch: z.string().trim().max(200).optional(),
      featureName: z.string().max(500).optional(),
      scenarioName: z.string().max(500).optional(),
    }),
    response: Ok.extend({
      /** One shell line: installs this server's runner with npx and runs the operation with the launch key. */
      command: z.string(),
      /** The same for `rehearse open`: the `rehearse://` link the registered handler receives. */
      deepLink: z.string(),
      /** Once a handler is registered (`rehearse setup`), the deep link launches without a terminal. */
      setupCommand: z.string(),
      /** Installs the same runner into the current folder instead (at the server address the commands above use). */
      installCommand: z.string(),
      env: z.string(),
      keyName: z.string(),
      expiresAt: z.string(),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT, operation: 'recorder' } },
  }),
} as const;

/** A coordinate or distance in the remote page's CSS pixels: finite and within reason. */
const pagePixels = z.number().finite().gt(-100_000).lt(100_000);
/** The client's sequence number of an input, echoed in the frame that shows its effect. */
const inputId = z.number().int().nonnegative().optional();

/**
 * Input the page sends over the recorder socket; coordinates are in the remote page's CSS pixels.
 * The server drops anything that does not parse: only well-formed input within bounds reaches a browser.
 */
export const RecorderInput = z.discriminatedUnion('kind', [
  /** `clickCount`: 2 on the second press of a double-click (the browser's `MouseEvent.detail`), so the page sees a dblclick. */
  z.object({
    kind: z.literal('mouse'),
    type: z.enum(['move', 'down', 'up']),
    x: pagePixels,
    y: pagePixels,
    button: z.enum(['left', 'right', 'middle']).optional(),
    clickCount: z.number().int().min(1).max(3).optional(),
    id: inputId,
  }),
  z.object({ kind: z.literal('wheel'), x: pagePixels, y: pagePixels, deltaX: pagePixels, deltaY: pagePixels, id: inputId }),
  z.object({ kind: z.literal('key'), type: z.enum(['down', 'up']), key: z.string().max(32), id: inputId }),
  z.object({ kind: z.literal('paste'), text: z.string().max(100_000), id: inputId }),
  z.object({ kind: z.literal('viewport'), width: z.number().int().min(320).max(3840), height: z.number().int().min(240).max(2160) }),
  z.object({ kind: z.literal('navigate'), url: z.string().max(4000) }),
]);
export type RecorderInput = z.infer<typeof RecorderInput>;

/** `attach`: the socket follows one cloud session, which must be its user's own. */
export const RecorderAttachRequest = z.object({ connectionId: z.string().max(100) });
/** `assert`: an assertion on the element last clicked (or on the text given). */
export const RecorderAssertRequest = z.object({ type: RecorderAssertion, text: z.string().optional() });

/** Events of the recorder socket (`RECORDER_SOCKET_PATH`): what the server sends, checked on receipt by the page. */
export const RecorderFrameEvent = z.object({
  /** JPEG bytes. */
  data: z.custom<ArrayBuffer | Uint8Array<ArrayBufferLike>>((value) => value instanceof ArrayBuffer || value instanceof Uint8Array),
  width: z.number(),
  height: z.number(),
  seq: z.number(),
  input: z.number().optional(),
});
export const RecorderStepsEvent = z.object({ commands: z.array(RecordedCommand) });
export const RecorderStateEvent = z.object({ state: RecorderSessionState, expiresAt: z.string(), message: z.string().optional() });
export const RecorderWarningEvent = z.object({ message: z.string(), secondsLeft: z.number() });
export const RecorderEndedEvent = z.object({ message: z.string() });
export type RecorderFrameEvent = z.infer<typeof RecorderFrameEvent>;

export interface RecorderServerEvents {
  frame: (frame: RecorderFrameEvent) => void;
  steps: (payload: z.infer<typeof RecorderStepsEvent>) => void;
  state: (payload: z.infer<typeof RecorderStateEvent>) => void;
  warning: (payload: z.infer<typeof RecorderWarningEvent>) => void;
  ended: (payload: z.infer<typeof RecorderEndedEvent>) => void;
}

/** The schema of each event the recorder socket's server sends, for the page to check what it receives. */
export const RecorderServerEventSchemas = {
  frame: RecorderFrameEvent,
  steps: RecorderStepsEvent,
  state: RecorderStateEvent,
  warning: RecorderWarningEvent,
  ended: RecorderEndedEvent,
} as const satisfies Record<keyof RecorderServerEvents, z.ZodType>;

export interface RecorderClientEvents {
  attach: (request: z.input<typeof RecorderAttachRequest>, ack: (answer: { status: boolean; error?: string }) => void) => void;
  input: (input: RecorderInput) => void;
  assert: (request: z.input<typeof RecorderAssertRequest>, ack: (answer: { status: boolean; error?: string }) => void) => void;
  undo: (ack: (answer: { status: boolean }) => void) => void;
}
