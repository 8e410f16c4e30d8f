import { z } from 'zod';
import type { SsoSettingsChange, SsoSettingsView } from '@rehearse/contract';
import { decryptSecret, encryptSecret } from '../crypto/secrets.js';
import type { Settings } from '../env.js';
import { INSTANCE_SETTINGS_CACHE_MS } from './instance-settings.js';
import type { InstanceSettingsRepo } from './instance-settings.repo.js';

/** What single sign-on needs to run. */
export interface SsoConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

/** The key under which the saved configuration lives among the instance settings. */
const SAVED_KEY = 'sso';
const Saved = z.object({ issuer: z.string(), clientId: z.string(), clientSecret: z.string(), name: z.string() });

/**
 * Single sign-on's configuration: what an administrator saved (in the instance settings, the
 * client secret encrypted with the server's key), else the OIDC_* variables, else none. Every
 * server reads it again within INSTANCE_SETTINGS_CACHE_MS, so a change applies across a cluster
 * without a restart. The secret never leaves: the view says only whether one is kept.
 */
export class SsoSettings {
  private cache: { value: { config: SsoConfig | undefined; source: SsoSettingsView['source'] }; readAt: number } | undefined;

  constructor(
    private readonly repo: InstanceSettingsRepo,
    private readonly settings: Pick<
      Settings,
      'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'OIDC_NAME' | 'publicUrl' | 'secretKey'
    >,
  ) {}

  get redirectUri(): string {
    return `${this.settings.publicUrl}/api/auth/sso/callback`;
  }

  private fromEnvironment(): SsoConfig | undefined {
    const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: name } = this.settings;
    return issuer && clientId && clientSecret ? { issuer, clientId, clientSecret, name } : undefined;
  }

  /** The configuration in force (read at most INSTANCE_SETTINGS_CACHE_MS ago) and where it comes from. */
  async current(): Promise<{ config: SsoConfig | undefined; source: SsoSettingsView['source'] }> {
    if (this.cache && Date.now() - this.cache.readAt < INSTANCE_SETTINGS_CACHE_MS) return this.cache.value;
    const saved = Saved.safeParse((await this.repo.all()).get(SAVED_KEY));
    let value: { config: SsoConfig | undefined; source: SsoSettingsView['source'] };
    if (saved.success) {
      value = { config: { ...saved.data, clientSecret: decryptSecret(saved.data.clientSecret, this.settings.secretKey) }, source: 'saved' };
    } else {
      const config = this.fromEnvironment();
      value = { config, source: config ? 'environment' : 'none' };
    }
    this.cache = { value, readAt: Date.now() };
    return value;
  }

  async view(): Promise<SsoSettingsView> {
    const { config, source } = await this.current();
    return {
      source,
      issuer: config?.issuer ?? null,
      clientId: config?.clientId ?? null,
      name: config?.name ?? null,
      clientSecretSet: config !== undefined,
      redirectUri: this.redirectUri,
    };
  }

  /** The configuration a change would put in force (a change without a secret keeps the one in force). */
  async resolve(change: SsoSettingsChange): Promise<SsoConfig | undefined> {
    const secret = change.clientSecret ?? (await this.current()).config?.clientSecret;
    return secret ? { issuer: change.issuer, clientId: change.clientId, clientSecret: secret, name: change.name } : undefined;
  }

  async save(config: SsoConfig): Promise<void> {
    await this.repo.change({ [SAVED_KEY]: { ...config, clientSecret: encryptSecret(config.clientSecret, this.settings.secretKey) } }, []);
    this.cache = undefined;
  }

  async clear(): Promise<void> {
    await this.repo.change({}, [SAVED_KEY]);
    this.cache = undefined;
  }
}
