import {
  InstanceSettings,
  SignupPolicy,
  type InstanceSettingName,
  type InstanceSettingsChange,
  type InstanceSettingsInForce,
  type InstanceSettingSource,
  type InstanceSettingsView,
} from '@rehearse/contract';
import type { z } from 'zod';
import type { Settings } from '../env.js';
import type { InstanceSettingsRepo } from './instance-settings.repo.js';

/**
 * How long a read of the saved settings serves the hot paths (every authenticated request, every
 * job's retry decision). Another server of the cluster applies a change within this long; the
 * server that saved it applies it at once, since a save replaces its cached copy.
 */
export const INSTANCE_SETTINGS_CACHE_MS = 5_000;

/**
 * The instance settings an administrator may change while the server runs: the sign-up policy, how
 * many projects a new user may create, how long an idle session lives, how often an errored job is
 * tried and after what backoff, and how long job history is kept. A saved value overrides its
 * environment variable (`SIGNUP`, `DEFAULT_ALLOWED_PROJECTS`, `SESSION_IDLE_HOURS`, `JOB_ATTEMPTS`,
 * `JOB_RETRY_BACKOFF_SECONDS`, `JOB_HISTORY_DAYS`). Values live in the database, so every server of
 * a cluster applies a change: `current()` reads them each time, `cached()` and `latest()` at most
 * once per INSTANCE_SETTINGS_CACHE_MS.
 */
export class InstanceSettingsService {
  private cache: { settings: InstanceSettingsInForce; readAt: number } | undefined;
  private reading: Promise<InstanceSettingsInForce> | undefined;
  /** Reads started so far, and which of them the cache holds. */
  private reads = 0;
  private cachedRead = 0;

  constructor(
    private readonly repo: InstanceSettingsRepo,
    /** The environment's values, in force until an administrator saves another. */
    private readonly defaults: InstanceSettingsInForce,
    private readonly now: () => number = Date.now,
  ) {}

  /** The settings in force, read from the database now. */
  async current(): Promise<InstanceSettingsInForce> {
    return (await this.read()).settings;
  }

  /** The settings in force, read from the database now, with where each comes from and the environment's values. */
  async view(): Promise<InstanceSettingsView> {
    return { ...(await this.read()), environment: this.defaults };
  }

  private async read(): Promise<Pick<InstanceSettingsView, 'settings' | 'sources'>> {
    const read = ++this.reads;
    const saved = await this.repo.all();
    const sources = {} as Record<InstanceSettingName, InstanceSettingSource>;
    // A saved value this version cannot read (written by a newer one) falls back to the environment's.
    const valueOf = <K extends InstanceSettingName>(key: K, schema: z.ZodType<InstanceSettingsInForce[K]>) => {
      const parsed = schema.safeParse(saved.get(key));
      sources[key] = parsed.success ? 'saved' : 'environment';
      return parsed.success ? parsed.data : this.defaults[key];
    };
    const settings: InstanceSettingsInForce = {
      signup: valueOf('signup', SignupPolicy),
      defaultAllowedProjects: valueOf('defaultAllowedProjects', InstanceSettings.shape.defaultAllowedProjects),
      sessionIdleHours: valueOf('sessionIdleHours', InstanceSettings.shape.sessionIdleHours),
      jobAttempts: valueOf('jobAttempts', InstanceSettings.shape.jobAttempts),
      jobRetryBackoffSeconds: valueOf('jobRetryBackoffSeconds', InstanceSettings.shape.jobRetryBackoffSeconds),
      jobHistoryDays: valueOf('jobHistoryDays', InstanceSettings.shape.jobHistoryDays),
    };
    // A read that began before a save and ends after it must not put the old values back.
    if (read > this.cachedRead) this.cache = { settings, readAt: this.now() };
    this.cachedRead = Math.max(this.cachedRead, read);
    return { settings, sources };
  }

  /** The settings in force as read at most INSTANCE_SETTINGS_CACHE_MS ago: for paths taken on every request. */
  async cached(): Promise<InstanceSettingsInForce> {
    if (this.cache && this.now() - this.cache.readAt < INSTANCE_SETTINGS_CACHE_MS) return this.cache.settings;
    this.reading ??= this.current().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  /**
   * The settings as last read, for code that reads its settings without waiting (the job engines'
   * settings objects); when that read is older than INSTANCE_SETTINGS_CACHE_MS a new one starts in
   * the background, so a change made on another server applies from the next decision after it.
   */
  latest(): InstanceSettingsInForce {
    if (!this.cache || this.now() - this.cache.readAt >= INSTANCE_SETTINGS_CACHE_MS) {
      // A failed background read keeps the last values; the next call tries again.
      this.cached().catch(() => undefined);
    }
    return this.cache?.settings ?? this.defaults;
  }

  /**
   * Saves the settings named in `change` (the others keep their values), deletes the saved value of
   * those named with `null` (their environment variable's value is in force again), and answers the
   * settings now in force.
   */
  async update(change: InstanceSettingsChange): Promise<InstanceSettingsView> {
    const named = Object.entries(change).filter(([, value]) => value !== undefined);
    await this.repo.change(
      Object.fromEntries(named.filter(([, value]) => value !== null)),
      named.filter(([, value]) => value === null).map(([key]) => key),
    );
    return this.view();
  }
}

/** The environment's values of the instance settings, in force until an administrator saves others. */
export function instanceSettingsFromEnvironment(
  settings: Pick<
    Settings,
    'SIGNUP' | 'DEFAULT_ALLOWED_PROJECTS' | 'SESSION_IDLE_HOURS' | 'JOB_ATTEMPTS' | 'JOB_RETRY_BACKOFF_SECONDS' | 'JOB_HISTORY_DAYS'
  >,
): InstanceSettingsInForce {
  return {
    signup: settings.SIGNUP,
    defaultAllowedProjects: settings.DEFAULT_ALLOWED_PROJECTS,
    sessionIdleHours: settings.SESSION_IDLE_HOURS,
    jobAttempts: settings.JOB_ATTEMPTS,
    jobRetryBackoffSeconds: settings.JOB_RETRY_BACKOFF_SECONDS,
    jobHistoryDays: settings.JOB_HISTORY_DAYS,
  };
}
