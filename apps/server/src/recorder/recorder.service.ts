import { randomUUID } from 'node:crypto';
import {
  Limits,
  Messages,
  RecorderLimits,
  RECORDER_SOCKET_PATH,
  type PublishRecordingBody,
  type RecordedCommand,
  type RecordedPage,
  type RecorderAssertion,
  type RecorderInput,
  type RecorderSessionInfo,
  type RecorderSessionState,
  type RecordingCheck,
} from '@rehearse/contract';
import { digestTestData, type FromRecorder } from '@rehearse/codegen';
import { Deadline } from '@rehearse/processes';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller, ProjectAccess } from '../http/caller.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import type { EnvironmentsService } from '../workspace/environments.service.js';
import type { TestDataService } from '../workspace/test-data.service.js';
import type { WorkspaceService } from '../workspace/workspace.service.js';
import { probe } from './reachability.js';
import type { RecordingPublisher, PublishResult } from './recording-publisher.js';
import { startRecorderProcess, type RecorderProcess } from './recorder-process.js';
import type { DomainEventBus } from '../events/domain-events.js';
import type { RecordingChecks } from './recording-check.js';

export interface RecorderSettings {
  /** Cloud sessions this server runs at once, all users together; more answer 503. */
  capacity: number;
  /** Cloud sessions one project may hold at once, so one project cannot take the whole server. */
  projectCapacity: number;
  sessionMs: number;
  warningMs: number;
  creationTimeoutMs: number;
  allowPrivateTargets: boolean;
  /** The egress proxy every recorder browser goes through (each navigation, redirect, subresource, websocket). */
  egressProxyUrl: () => Promise<string>;
}

/** What the recorder socket is told about a session. */
export interface SessionEvents {
  frame(id: string, frame: { data: Buffer; width: number; height: number; seq: number; input?: number }): void;
  steps(id: string, commands: RecordedCommand[]): void;
  state(id: string, state: RecorderSessionState, expiresAt: string, message?: string): void;
  warning(id: string, message: string, secondsLeft: number): void;
  ended(id: string, message: string): void;
  /** The self-check after Publish: `checking`, then how the replay went. */
  check(id: string, check: RecordingCheck): void;
}

export interface LiveSession {
  id: string;
  userId: string;
  projectId: string;
  env: string;
  branch: string;
  url: string;
  state: RecorderSessionState;
  createdAt: Date;
  expiresAt: Date;
  process: RecorderProcess;
  commands: RecordedCommand[];
  pages: Map<string, RecordedPage>;
  lastFrame?: { data: Buffer; width: number; height: number; seq: number };
  seq: number;
  /** The session's own limits (creation, the expiry warning, the end), each the shared deadline kind, disposed when it ends. */
  deadlines: Deadline[];
  /** The self-check of the last Publish, for a page that (re)attaches. */
  check?: RecordingCheck;
  /** Stops a self-check when the session ends (nobody is left to tell). */
  checkAbort?: AbortController;
}

/** Calls `then` once `ms` have passed, on the shared deadline (dispose it to call nothing). */
function at(ms: number, then: () => void): Deadline {
  const deadline = new Deadline(ms);
  deadline.signal.addEventListener('abort', then, { once: true });
  return deadline;
}

/**
 * Cloud recorder sessions (spec 02 §4): at most 2 per user and `capacity` per server, each a
 * recorder process with its own Chromium; 30 minutes with a warning in the last minute; 45 s to
 * come up. Ending a session, for whatever reason, stops its process and so frees its browser.
 */
export class RecorderService {
  private readonly sessions = new Map<string, LiveSession>();
  /** Sessions being created count against the limits too. */
  private pending = 0;
  private readonly pendingByUser = new Map<string, number>();
  private readonly pendingByProject = new Map<string, number>();
  events: SessionEvents | undefined;

  constructor(
    private readonly settings: RecorderSettings,
    private readonly workspaces: WorkspaceService,
    private readonly environments: EnvironmentsService,
    private readonly testData: TestDataService,
    private readonly publisher: RecordingPublisher,
    private readonly log: FastifyBaseLogger,
    /** Hears `recordingPublished` (the application memory). */
    private readonly domainEvents: DomainEventBus,
    /** Replays what a cloud session publishes (the self-check); null: no check. */
    private readonly checks: RecordingChecks | null = null,
  ) {}

  /** Sessions a project holds now, starting ones included. */
  projectCount(projectId: string): number {
    let count = this.pendingByProject.get(projectId) ?? 0;
    for (const session of this.sessions.values()) if (session.projectId === projectId) count++;
    return count;
  }

  /** Live sessions of a user (what the concurrent-sessions call answers). */
  activeCount(userId: string): number {
    let count = this.pendingByUser.get(userId) ?? 0;
    for (const session of this.sessions.values()) if (session.userId === userId) count++;
    return count;
  }

  /** The project of a live session, for authorization of calls that name one. */
  async projectOf(id: string): Promise<string | undefined> {
    return this.sessions.get(id)?.projectId;
  }

  /** A session the caller owns; another user's session is as absent as a finished one. */
  owned(caller: Caller, id: string): LiveSession {
    const session = this.sessions.get(id);
    if (!session || session.userId !== caller.user.id) throw notFound(Messages.recorderSessionNotFound);
    return session;
  }

  info(session: LiveSession): RecorderSessionInfo {
    return {
      connectionId: session.id,
      projectId: session.projectId,
      env: session.env,
      branch: session.branch,
      url: session.url,
      state: session.state,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      socketPath: RECORDER_SOCKET_PATH,
    };
  }

  /** The caller's live sessions in every project, oldest first. */
  mine(caller: Caller): RecorderSessionInfo[] {
    return [...this.sessions.values()]
      .filter((session) => session.userId === caller.user.id)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((session) => this.info(session));
  }

  /** Whether the recorder may open a URL, with the spec's message when not. */
  async checkReachable(url: string): Promise<{ statusCode: number }> {
    const verdict = await probe(url, this.settings.allowPrivateTargets);
    if (!verdict.ok || verdict.statusCode === undefined) throw badRequest(Messages.recorderUnreachable);
    return { statusCode: verdict.statusCode };
  }

  async create(
    caller: Caller,
    access: ProjectAccess,
    body: { env: string; branch?: string | undefined; viewport?: { width: number; height: number } | undefined },
  ): Promise<RecorderSessionInfo> {
    const userId = caller.user.id;
    if (this.activeCount(userId) >= RecorderLimits.maxSessionsPerUser) throw new AppError(429, Messages.recorderMaxSessions);
    if (this.sessions.size + this.pending >= this.settings.capacity) throw new AppError(503, Messages.recorderOverloaded);
    const projectId = access.project.id;
    if (this.projectCount(projectId) >= this.settings.projectCapacity) {
      throw new AppError(503, Messages.recorderProjectFull.replace('{n}', String(this.settings.projectCapacity)));
    }
    this.pending++;
    this.pendingByUser.set(userId, (this.pendingByUser.get(userId) ?? 0) + 1);
    this.pendingByProject.set(projectId, (this.pendingByProject.get(projectId) ?? 0) + 1);
    try {
      const ws = await this.workspaces.open(caller, access, body.branch);
      const { allEnv } = await this.environments.list(ws);
      const env = allEnv.find((e) => e.name === body.env || e.name === `${body.env}.json` || e.data.name === body.env);
      if (!env) throw notFound(Messages.environmentNotFound);
      const baseUrl = env.data.baseUrl;
      await this.checkReachable(baseUrl);
      // Plain test-data values stay in this process; the page only gets digests to match against.
      const rows = await this.testData.resolveForRun(ws, await this.workspaces.read(ws), env.data.name ?? body.env);
      const testData = digestTestData(
        rows.filter((r) => r.DataType !== 'totp').map((r) => ({ key: r.key, value: r.value, secret: r.DataType === 'secret' })),
      );
      const proxyUrl = await this.settings.egressProxyUrl();
      return await this.launch(
        userId,
        access.project.id,
        env.data.name ?? body.env,
        ws.branch,
        baseUrl,
        testData,
        body.viewport ?? { width: 1280, height: 800 },
        proxyUrl,
      );
    } finally {
      this.pending--;
      const left = (this.pendingByUser.get(userId) ?? 1) - 1;
      if (left > 0) this.pendingByUser.set(userId, left);
      else this.pendingByUser.delete(userId);
      const projectLeft = (this.pendingByProject.get(projectId) ?? 1) - 1;
      if (projectLeft > 0) this.pendingByProject.set(projectId, projectLeft);
      else this.pendingByProject.delete(projectId);
    }
  }

  private launch(
    userId: string,
    projectId: string,
    env: string,
    branch: string,
    url: string,
    testData: ReturnType<typeof digestTestData>,
    viewport: { width: number; height: number },
    proxyUrl: string,
  ): Promise<RecorderSessionInfo> {
    const id = randomUUID();
    const now = new Date();
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (reason: string, refused = false) => {
        if (settled) return;
        settled = true;
        this.log.warn({ session: id, reason }, 'recorder session could not start');
        void this.end(id, Messages.recorderSessionLoadError, 'failed');
        // A page that leads where the egress rules refuse is the user's "not reachable", said at once.
        reject(refused ? badRequest(Messages.recorderUnreachable) : new AppError(500, Messages.recorderSessionLoadError));
      };
      const process = startRecorderProcess({ url, baseUrl: url, viewport, testData }, id, proxyUrl, {
        onMessage: (message) => {
          if (message.type === 'ready' && !settled) {
            settled = true;
            session.state = 'connected';
            // The 30 minutes are the user's: they start when the page can stream, not at launch.
            session.expiresAt = new Date(Date.now() + this.settings.sessionMs);
            this.schedule(session);
            resolve(this.info(session));
          } else if (message.type === 'failed') fail(message.message, message.refused === true);
          else this.onMessage(session, message);
        },
        onExit: (code, stderr) => {
          if (!settled) fail(`the recorder process exited (${code}): ${stderr}`);
          else if (this.sessions.has(id)) void this.end(id, Messages.recorderSessionLoadError, 'failed');
        },
      });
      const session = this.track({ id, userId, projectId, env, branch, url, createdAt: now }, process);
      session.deadlines.push(at(this.settings.creationTimeoutMs, () => fail('creation timeout')));
    });
  }

  /**
   * Keeps a session that has a process. Creation goes through here; so do tests that need a
   * session id without a browser (the permission matrix).
   */
  track(
    fields: { id: string; userId: string; projectId: string; env: string; branch: string; url: string; createdAt: Date },
    process: RecorderProcess,
  ): LiveSession {
    const session: LiveSession = {
      ...fields,
      state: 'preparing',
      expiresAt: new Date(fields.createdAt.getTime() + this.settings.sessionMs),
      process,
      commands: [],
      pages: new Map(),
      seq: 0,
      deadlines: [],
    };
    this.sessions.set(fields.id, session);
    return session;
  }

  private schedule(session: LiveSession): void {
    const left = session.expiresAt.getTime() - Date.now();
    session.deadlines.push(
      at(Math.max(0, left - this.settings.warningMs), () =>
        this.events?.warning(session.id, Messages.recorderExpiryWarning, Math.round(this.settings.warningMs / 1000)),
      ),
      at(left, () => void this.end(session.id, Messages.recorderSessionEnded)),
    );
    this.events?.state(session.id, session.state, session.expiresAt.toISOString());
  }

  private onMessage(session: LiveSession, message: FromRecorder): void {
    switch (message.type) {
      case 'frame': {
        // IPC hands the bytes over as a Uint8Array; a Buffer view of them avoids copying every frame.
        const data = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
        const frame = {
          data,
          width: message.width,
          height: message.height,
          seq: ++session.seq,
          ...(message.input === undefined ? {} : { input: message.input }),
        };
        session.lastFrame = frame;
        this.events?.frame(session.id, frame);
        break;
      }
      case 'commands':
        session.commands = message.commands;
        this.events?.steps(session.id, message.commands);
        break;
      case 'page':
        session.pages.set(message.page.path, message.page);
        break;
      default:
        break;
    }
  }

  /** What a (re)attaching page needs at once: the last frame, the steps and the state. */
  snapshot(session: LiveSession) {
    return {
      lastFrame: session.lastFrame,
      commands: session.commands,
      state: session.state,
      expiresAt: session.expiresAt.toISOString(),
      check: session.check,
    };
  }

  input(session: LiveSession, input: RecorderInput): void {
    if (input.kind === 'navigate' && !/^https?:\/\//i.test(new URL(input.url, session.url).toString())) return;
    session.process.send({ type: 'input', input });
  }

  assert(session: LiveSession, type: RecorderAssertion, text?: string): void {
    session.process.send({ type: 'assert', mode: type, ...(text ? { text } : {}) });
  }

  undo(session: LiveSession): void {
    session.process.send({ type: 'undo' });
  }

  /** The caller's newest live session in a project, so a reload re-attaches to it. */
  active(caller: Caller, projectId: string): RecorderSessionInfo | null {
    const mine = [...this.sessions.values()].filter(
      (s) => s.userId === caller.user.id && s.projectId === projectId && s.state === 'connected',
    );
    const newest = mine.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    return newest ? this.info(newest) : null;
  }

  /** Ends a session: its process (and browser) stops, its page is told why. */
  async end(id: string, message: string = Messages.recorderSessionEnded, state: RecorderSessionState = 'ended'): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    for (const deadline of session.deadlines) deadline.dispose();
    session.checkAbort?.abort();
    session.state = state;
    this.events?.ended(id, message);
    await session.process.stop();
  }

  async publish(caller: Caller, access: ProjectAccess, body: PublishRecordingBody): Promise<PublishResult> {
    let commands = body.commands ?? [];
    let env = body.env ?? '';
    let branch = body.branch;
    let pages = body.pages ?? [];
    if (body.connectionId) {
      const session = this.owned(caller, body.connectionId);
      if (session.projectId !== access.project.id) throw notFound(Messages.recorderSessionNotFound);
      commands = session.commands;
      env = session.env;
      branch = session.branch;
      pages = [...session.pages.values()];
    }
    const ws = await this.workspaces.open(caller, access, branch ?? Limits.defaultBranch);
    const result = await this.publisher.publish(ws, {
      featureName: body.featureName,
      scenarioName: body.scenarioName,
      commands,
      env: env || 'default',
      stepIndex: body.stepIndex,
    });
    await this.domainEvents.emit('recordingPublished', {
      projectId: access.project.id,
      featureName: result.featureName,
      scenarioName: result.scenarioName,
      pages,
      commands,
    });
    if (body.connectionId) {
      const session = this.sessions.get(body.connectionId);
      if (session) {
        this.events?.state(session.id, 'published', session.expiresAt.toISOString());
        this.selfCheck(caller, access, session, result);
      }
    }
    return result;
  }

  /**
   * Replays what a cloud session just published, once, on the environment and branch it was
   * recorded on, and tells the session's page: `checking` at once, then the outcome (DESIGN §7).
   * A newer Publish supersedes the check of an earlier one.
   */
  private selfCheck(caller: Caller, access: ProjectAccess, session: LiveSession, published: PublishResult): void {
    if (!this.checks) return;
    session.checkAbort?.abort();
    const abort = new AbortController();
    session.checkAbort = abort;
    const tell = (check: RecordingCheck) => {
      if (abort.signal.aborted) return;
      session.check = check;
      this.events?.check(session.id, check);
    };
    tell({ state: 'checking', commit: published.commit });
    void this.checks
      .check(
        caller,
        access,
        {
          branch: session.branch,
          featureName: published.featureName,
          scenarioName: published.scenarioName,
          environment: session.env,
          commit: published.commit,
        },
        abort.signal,
      )
      .then(tell);
  }

  /** Stops every session (server shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id, Messages.recorderSessionEnded)));
  }
}
