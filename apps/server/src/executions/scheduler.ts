import { createHash } from 'node:crypto';
import { DAY_MS, WEEK_DAYS, zonedTimeToUtc, zoneOffsetMs, type Schedule } from '@rehearse/contract';
import type { JobQueue } from '../jobs/job-queue.js';
import type { RetryPolicy } from '../jobs/retry-policy.js';
import type { EngineLogger, ExecutionEngine } from './execution-engine.js';
import { ExecutionRefused } from './execution-errors.js';
import type { ExecutionsRepo } from './executions.repo.js';

/** pg-boss's queue of fired schedule slots: one job per (execution, slot), which starts the execution. */
export const SCHEDULE_QUEUE = 'execution-schedule';

/** What a fired slot's job carries. */
export interface FiredSlot {
  executionId: string;
  /** The slot's instant (ISO). */
  slot: string;
  /** The server whose tick fired it. */
  firedBy: string;
}

/** A scheduled start that has not ended this long after it was claimed is tried again (its server died). */
const START_DEADLINE_SECONDS = 5 * 60;

/**
 * The job id of an execution's slot: the same on every server (a name-based uuid, version 5
 * layout), so the first server to fire the slot queues it and every other server's fire is
 * refused as the same job.
 */
export function slotJobId(executionId: string, slot: Date): string {
  const hex = createHash('sha1').update(`rehearse.schedule-slot:${executionId}:${slot.toISOString()}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05 was a Monday: weeks are counted from there. */
const FIRST_MONDAY = Date.UTC(1970, 0, 5);

/** A slot missed by more than this (the server was down) is not fired late. */
export const SCHEDULE_LOOKBACK_MS = 5 * 60_000;

function weekIndex(localDayStart: number): number {
  return Math.floor((localDayStart - FIRST_MONDAY) / WEEK_MS);
}

function localDayStart(localMs: number): number {
  return Math.floor(localMs / DAY_MS) * DAY_MS;
}

/** How a schedule's zone turns instants into wall-clock times and back. */
interface ScheduleZone {
  /** Wall-clock time at `instantMs`, written as if it were UTC. */
  local(instantMs: number): number;
  /** The instant at which the zone's clocks read `localMs`. */
  instant(localMs: number): number;
}

function scheduleZone(schedule: Pick<Schedule, 'timeZone' | 'ianaTimeZone'>): ScheduleZone {
  const zone = schedule.ianaTimeZone;
  if (zone) return { local: (ms) => ms + zoneOffsetMs(zone, ms), instant: (localMs) => zonedTimeToUtc(localMs, zone) };
  const offsetMs = Math.round(schedule.timeZone * 3_600_000);
  return { local: (ms) => ms + offsetMs, instant: (localMs) => localMs - offsetMs };
}

/**
 * The slot of a schedule that is due at `now`: the latest (day, time) of the schedule, read in its
 * time zone (an IANA zone with its daylight saving, else the fixed offset), that is not after
 * `now`, not older than the lookback and not before the schedule was set. Biweekly schedules fire
 * in the weeks of the same parity as the week they were set in.
 */
export function dueSlot(
  schedule: Pick<Schedule, 'days' | 'time' | 'timeZone' | 'ianaTimeZone' | 'isBiweekly'>,
  now: Date,
  setAt: Date,
  lookbackMs = SCHEDULE_LOOKBACK_MS,
): Date | undefined {
  const zone = scheduleZone(schedule);
  const [hours, minutes] = schedule.time.split(':').map(Number) as [number, number];
  const today = localDayStart(zone.local(now.getTime()));
  for (const day of [today, today - DAY_MS]) {
    const slot = zone.instant(day + (hours * 60 + minutes) * 60_000);
    if (slot > now.getTime() || slot <= now.getTime() - lookbackMs || slot < setAt.getTime()) continue;
    const weekday = WEEK_DAYS[(new Date(day).getUTCDay() + 6) % 7]!;
    if (!schedule.days.includes(weekday)) continue;
    if (schedule.isBiweekly && Math.abs(weekIndex(day) - weekIndex(localDayStart(zone.local(setAt.getTime())))) % 2 !== 0) continue;
    return new Date(slot);
  }
  return undefined;
}

export interface Clock {
  now(): Date;
}

/**
 * Fires enabled schedules (issue 21: on pg-boss). Every scheduler server ticks and computes the due
 * slots by our rules (days, time, time zone or offset, biweekly parity, set time); firing a slot
 * queues its job in pg-boss under the slot's own id (`slotJobId`), so exactly one server's fire is
 * queued per slot across all of them. Then any scheduler server claims the fired slot and starts
 * the execution: a start that failed for an infrastructure reason (or whose server died) is tried
 * again after pg-boss's backoff, and one the engine refused (already running, no scenarios, the
 * member gone) ends with its reason. pg-boss's retention forgets fired slots with the job history.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;

  constructor(
    private readonly executions: ExecutionsRepo,
    private readonly jobs: JobQueue,
    private readonly engine: ExecutionEngine,
    private readonly clock: Clock,
    private readonly settings: { tickMs: number; serverId: string; retries: RetryPolicy },
    private readonly log: EngineLogger & { debug(details: object, message: string): void },
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.settings.tickMs);
    this.timer.unref();
    void this.tick();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const now = this.clock.now();
      const planned = await this.executions.listScheduled();
      for (const execution of planned) {
        const slot = dueSlot(execution.schedule as Schedule, now, execution.setAt ?? execution.createdAt);
        if (!slot) continue;
        const fired: FiredSlot = { executionId: execution.id, slot: slot.toISOString(), firedBy: this.settings.serverId };
        const queued = await this.jobs.enqueueOnce(SCHEDULE_QUEUE, fired, {
          id: slotJobId(execution.id, slot),
          ...this.settings.retries.queueOptions(),
          expireInSeconds: START_DEADLINE_SECONDS,
        });
        if (!queued) {
          this.log.debug({ executionId: execution.id, slot: fired.slot }, 'schedule slot fired by another server');
          continue;
        }
        this.log.info({ executionId: execution.id, slot: fired.slot }, 'schedule fired');
      }
      await this.startFiredSlots();
    } catch (error) {
      this.log.warn({ err: error }, 'schedule tick failed');
    } finally {
      this.ticking = false;
    }
  }

  /** Starts the executions of the fired slots this server claims, until none is left to claim. */
  private async startFiredSlots(): Promise<void> {
    for (;;) {
      const job = await this.jobs.claim<FiredSlot>(SCHEDULE_QUEUE);
      if (!job) return;
      const { executionId } = job.data;
      try {
        const { runId } = await this.engine.start(executionId, 'schedule');
        await this.jobs.complete(SCHEDULE_QUEUE, job.id, { runId });
      } catch (error) {
        this.log.warn({ err: error, executionId, attempt: job.attempt }, 'scheduled execution did not start');
        // The engine's refusals are answers (running, nothing to run, the member gone): no retry changes them.
        if (error instanceof ExecutionRefused) await this.jobs.complete(SCHEDULE_QUEUE, job.id, { refused: error.reason });
        else await this.jobs.fail(SCHEDULE_QUEUE, job.id, { message: error instanceof Error ? error.message : String(error) });
      }
    }
  }
}

/** The real clock, or (tests, SCHEDULER_CLOCK_START) one starting elsewhere and running faster. */
export function schedulerClock(start: Date | undefined, speed: number): Clock {
  const startedAt = Date.now();
  const base = start?.getTime() ?? startedAt;
  return { now: () => new Date(base + (Date.now() - startedAt) * speed) };
}
