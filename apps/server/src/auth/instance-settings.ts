import { InstanceSettings, SignupPolicy } from '@rehearse/contract';
import type { InstanceSettingsRepo } from './instance-settings.repo.js';

/**
 * The instance settings an administrator may change while the server runs: the sign-up policy
 * and how many projects a new user may create. A saved value overrides its environment variable
 * (`SIGNUP`, `DEFAULT_ALLOWED_PROJECTS`); read from the database each time, so every server of a
 * cluster applies a change at once.
 */
export class InstanceSettingsService {
  constructor(
    private readonly repo: InstanceSettingsRepo,
    private readonly defaults: InstanceSettings,
  ) {}

  async current(): Promise<InstanceSettings> {
    const saved = await this.repo.all();
    // A saved value this version cannot read (written by a newer one) falls back to the environment's.
    const signup = SignupPolicy.safeParse(saved.get('signup'));
    const allowed = InstanceSettings.shape.defaultAllowedProjects.safeParse(saved.get('defaultAllowedProjects'));
    return {
      signup: signup.success ? signup.data : this.defaults.signup,
      defaultAllowedProjects: allowed.success ? allowed.data : this.defaults.defaultAllowedProjects,
    };
  }

  async update(values: InstanceSettings): Promise<InstanceSettings> {
    await this.repo.set({ signup: values.signup, defaultAllowedProjects: values.defaultAllowedProjects });
    return this.current();
  }
}
