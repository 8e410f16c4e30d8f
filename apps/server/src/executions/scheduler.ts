import { DAY_MS, WEEK_DAYS, zonedTimeToUtc, zoneOffsetMs, type Schedule } from '@rehearse/contract';
import type { EngineLogger, ExecutionEngine } from './execution-engine.js';
import type { ExecutionsRepo } from './executions.repo.js';
import type { ScheduleFiresRepo } from './schedule-fires.repo.js';

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
 * Fires enabled schedules. Every server ticks; the primary key of execution_schedule_fires
 * (execution, slot) lets exactly one INSERT win per slot across all of them, and only the
 * winner starts the execution.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;

  constructor(
    private readonly executions: ExecutionsRepo,
    private readonly fires: ScheduleFiresRepo,
    private readonly engine: ExecutionEngine,
    private readonly clock: Clock,
    private readonly settings: { tickMs: number; serverId: string },
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

  /**
   * Job history: forgets the fired slots older than `keepMs`. A slot is claimed at most
   * SCHEDULE_LOOKBACK_MS after its time, so an older record only says when a schedule fired.
   */
  async forgetFiresOlderThan(keepMs: number): Promise<number> {
    return this.fires.deleteSlotsBefore(new Date(this.clock.now().getTime() - Math.max(keepMs, SCHEDULE_LOOKBACK_MS)));
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
        if (!(await this.fires.claimSlot(execution.id, slot, this.settings.serverId))) {
          this.log.debug({ executionId: execution.id, slot: slot.toISOString() }, 'schedule slot fired by another server');
          continue;
        }
        this.log.info({ executionId: execution.id, slot: slot.toISOString() }, 'schedule fired');
        await this.engine
          .start(execution.id, 'schedule')
          .catch((error: unknown) => this.log.warn({ err: error, executionId: execution.id }, 'scheduled execution did not start'));
      }
    } catch (error) {
      this.log.warn({ err: error }, 'schedule tick failed');
    } finally {
      this.ticking = false;
    }
  }
}

/** The real clock, or (tests, SCHEDULER_CLOCK_START) one starting elsewhere and running faster. */
export function schedulerClock(start: Date | undefined, speed: number): Clock {
  const startedAt = Date.now();
  const base = start?.getTime() ?? startedAt;
  return { now: () => new Date(base + (Date.now() - startedAt) * speed) };
}
