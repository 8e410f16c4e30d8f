import { describe, expect, it } from 'vitest';
import { recorderLink } from './recorder-link';
import { recorderUrl } from './recorder-option';

const scope = { projectId: 'p1', isPrivateRepo: true, branch: 'feature/login', ready: true };
const paramsOf = (link: string) => Object.fromEntries(new URL(link, 'http://x').searchParams);

describe('recorderLink', () => {
  it("opens the open-recorder page's recorder operation with the spec's params, the environment without .json", () => {
    const link = recorderLink(scope, 'checkout.feature', 'Pay by card', 'staging.json');
    expect(link.startsWith('/open-recorder/recorder?')).toBe(true);
    expect(paramsOf(link)).toEqual({
      project_id: 'p1',
      feature_file: 'checkout.feature',
      scenario_name: 'Pay by card',
      fromMainApp: 'true',
      env_name: 'staging',
      git_branch: 'feature/login',
    });
  });

  it('names no feature, scenario, environment or branch for a new recording on the default branch', () => {
    const link = recorderLink({ ...scope, branch: undefined }, '', '', null);
    expect(paramsOf(link)).toEqual({ project_id: 'p1', fromMainApp: 'true' });
  });

  it('opens the open_vscode operation for a scenario', () => {
    const link = recorderLink(scope, 'checkout.feature', 'Pay', 'staging.json', {}, 'open_vscode');
    expect(link.startsWith('/open-recorder/open_vscode?')).toBe(true);
    expect(paramsOf(link)).toMatchObject({ project_id: 'p1', feature_file: 'checkout.feature', scenario_name: 'Pay', env_name: 'staging' });
  });

  it("opens the apitest operation with a step's step_index and stepSource", () => {
    const link = recorderLink(scope, 'checkout.feature', 'Pay', null, { step_index: '2', stepSource: 'api' }, 'apitest');
    expect(link.startsWith('/open-recorder/apitest?')).toBe(true);
    expect(paramsOf(link)).toMatchObject({ step_index: '2', stepSource: 'api' });
  });
});

describe('recorderUrl', () => {
  it('names the environment without .json for the local and the cloud recorder', () => {
    const launch = { projectId: 'p1', envName: 'staging.json', branch: undefined };
    expect(paramsOf(recorderUrl('local', launch)).env_name).toBe('staging');
    expect(paramsOf(recorderUrl('cloud', launch)).env_name).toBe('staging');
  });
});
