import { Limits, RecorderLimits, scheduleText, TIME_ZONES, VIEWPORTS } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../../src/features/reports/report-rules';
import { ActivityLogPolicy } from '../../src/lib/activity-log';
import { SYNTAX_CHECK_DELAY_MS } from '../../src/routes/features/StepCodeDialog';
import { AI_BANNER_MS, AI_PROGRESS_INTERVAL_MS } from '../../src/routes/features/step-code/AiStepUpdate';
import { missingFromProduct } from './product-text';

/**
 * Spec 02 (the platform), held against the product: every message of its screens, rules and
 * error catalogue (§8) is among the words the product ships, and its constants (§9) are the
 * product's. The words are copied from the document by hand; `{x}` stands where the spec has a
 * value (N, T, n). Where each message appears is pinned by the test of that screen or call.
 */
const PLATFORM_WORDS = [
  // §2 Screens and routes
  'Add a flow',
  'Add a scenario group',
  'Aria snapshot',
  'Contact sales',
  'Create a test scenario',
  'Find an execution',
  'How to run in CI/CD',
  'No executions running',
  'No executions scheduled yet',
  'No memory available',
  'No search results found',
  'No threads available to execute scenarios',
  'Plan an execution',
  'Recording in Cloud',
  'Values used',
  'Your project will be ready in a few seconds',
  '{n} threads (parallel executions) available',
  // §4 States and transitions
  'Done! Review the changes',
  'Error updating the step code. Please try again.',
  'Execution saved successfully',
  'Failed to save execution',
  'No code generated',
  'Scenario Group {n}',
  'Schedule is required',
  'Skip for now',
  'failed by AI',
  'fixed by AI',
  // §5 Validation rules
  'A feature with this name already exists.',
  'Another feature exists with the given name.',
  'Another scenario exists with the given name.',
  'Back to editing',
  'Feature name cannot be more than 80 characters.',
  'Following characters are not allowed:',
  'Insufficient threads',
  'New name cannot be same as the old name.',
  'Please select at least one scenario.',
  'Save Anyway',
  'Scenario name already exists.',
  'Scenario name cannot exceed 80 characters.',
  'This key was added previously',
  'Unknown User',
  'Untitled',
  // §8 Error catalogue
  'Failed to fetch available threads',
  'Failed to fetch report link for execution with id {id}',
  'Network response was not ok',
  'echo "Failed to generate command"',
  'No Access Key found',
  'Access token required: Generate an access token to use this feature',
  'No console logs available',
  'No network logs available',
  'No network issues detected',
  'No output to display',
  'No screenshot available',
  'No Api tests added to test',
  'No tests',
  'No steps found',
  'There was an error, please make sure your credentials are correct',
  'Session could not be loaded',
  'An error occured while starting the session, please try again. If the issue persists, switch to local recording.',
  'Server is overloaded with recorder requests, please try again at a later time',
  'Session has ended, to record a new scenario, please start a new session',
  'Are you sure you want to end the session? All changes will be discarded',
  'Session expires soon, publish the recording before session ends',
  'You have reached the maximum number of sessions',
  'Only 2 concurrent sessions per user are allowed. Please end ongoing sessions and try again.',
  'Your environment is not reachable from the cloud',
  'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
  'Error getting user information, please try again later',
  'Error adding authenticator, please try again later',
  'An error occurred while deleting the user. Please try again later.',
  'Feature with the same name already exists',
  'Error in renaming feature',
  'Internal error',
  'An error occurred while trying to create the scenarios, please try again.',
  'An error occurred while deleting the scenario',
  'An error occurred while deleting the feature',
  'No features found.',
  'Invalid invitation,no id',
  'Invalid invitation,no inviter email',
  'Invalid invitation,no project',
  'This invitation is invalid',
  'There was an error in accepting invitation',
  'There was an error in declining invitation',
  'You have declined the invitation',
  'Retry removing user',
  'Retry launching',
  'Error fetching date',
  'No data available',
  'Invalid date',
  'Changes saved successfully',
  'Failed to delete step(s)',
  '{n} unused steps deleted',
  "Couldn't load unused steps",
  'Failed to fetch unused step definitions',
  'Error fetching latest release',
  // Invite rules
  'Please enter at least one email address.',
  'You cannot invite yourself to the project.',
  'Please enter unique email addresses.',
  'The user is already a member or has been invited to the project.',
  "You can't invite users during trial",
  'You do not have permission to invite members',
] as const;

describe('spec 02 (platform): the words it quotes', () => {
  it('are all among the words the product ships', () => {
    expect(missingFromProduct(PLATFORM_WORDS)).toEqual([]);
  });
});

describe('spec 02 (platform) §4: schedule texts', () => {
  it('says every day, every weekday, every week or every 2 weeks at the time, and a dash with no schedule', () => {
    const every = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
    expect(scheduleText({ days: [...every], isBiweekly: false, time: '09:15' })).toBe('Every day at 09:15');
    expect(scheduleText({ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], isBiweekly: false, time: '09:15' })).toBe('Every weekday at 09:15');
    expect(scheduleText({ days: ['Mon', 'Thu'], isBiweekly: false, time: '18:00' })).toBe('Every week on Mon, Thu at 18:00');
    expect(scheduleText({ days: ['Mon'], isBiweekly: true, time: '18:00' })).toBe('Every 2 weeks on Mon at 18:00');
    expect(scheduleText(null)).toBe('-');
  });
});

describe('spec 02 (platform) §9: business constants and limits', () => {
  it('offers the four viewports, Desktop - 1024px by default first among them', () => {
    expect(VIEWPORTS).toEqual(['Desktop - 1440px', 'Desktop - 1024px', 'Tablet - 800px', 'Mobile - 375px']);
  });

  it('offers the nine time zones with their offsets, in the spec’s order', () => {
    expect(TIME_ZONES.slice(0, 9).map((zone) => [zone.label, zone.offset])).toEqual([
      ['Central ST', -6],
      ['Eastern ST', -5],
      ['Atlantic ST', -4],
      ['Afghanistan', 4.5],
      ['Pakistan', 5],
      ['India', 5.5],
      ['Moscow', 3],
      ['Iran', 3.5],
      ['Gulf', 4],
    ]);
  });

  it('limits cloud recorder sessions to 2 per user and 30 minutes, warning in the last minute, 45 s to create, 5 s heartbeat', () => {
    expect(RecorderLimits).toMatchObject({
      maxSessionsPerUser: 2,
      sessionMinutes: 30,
      warningSeconds: 60,
      creationTimeoutSeconds: 45,
      heartbeatTimeoutSeconds: 5,
    });
  });

  it('caps feature and scenario names at 80 characters', () => {
    expect([Limits.featureNameMax, Limits.scenarioNameMax]).toEqual([80, 80]);
  });

  it('debounces search by 500 ms and checks step code 1 s after a change', () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(500);
    expect(SYNTAX_CHECK_DELAY_MS).toBe(1000);
  });

  it('shows AI banners 2 s and its progress messages every 1.5 s', () => {
    expect([AI_BANNER_MS, AI_PROGRESS_INTERVAL_MS]).toEqual([2000, 1500]);
  });

  it('flushes the activity log at 10 entries and every 10000 ms, with up to 3 retries', () => {
    expect(ActivityLogPolicy).toMatchObject({ batchSize: 10, flushEveryMs: 10_000, maxRetries: 3 });
  });
});
