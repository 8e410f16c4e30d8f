import { Limits, RecorderLimits, runsCalls } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { TOOLTIP_DELAY_MS } from '../../src/components/Tooltip';
import { PROJECT_CREATION_WAIT_MS } from '../../src/features/projects/creation';
import { TIME_RANGES } from '../../src/features/reports/report-rules';
import { GETTING_STARTED_VIDEO_SECONDS } from '../../src/lib/getting-started';
import { TruncateAt } from '../../src/lib/format';
import { Layout } from '../../src/lib/layout';
import { missingFromProduct } from './product-text';

/**
 * Spec 01 (the shell), held against the product: every message the document quotes is among the
 * words the product ships, and its constants are the product's. The words are copied from the
 * document by hand: a test computed from the app's own strings would prove nothing. Where each
 * word appears on screen is pinned by the e2e file of that screen.
 */
const SHELL_WORDS = [
  // §2 Screens and routes
  'Page Not Found!',
  "Sorry, we couldn't find the page you were looking for.",
  'Window Too Small',
  'Session Expired',
  'Your session has expired. Please login again.',
  'Something went wrong. Please reload the page.',
  'Click to Reload',
  'Continue in the app',
  'Download app',
  'Or use the demo app',
  'Creating...',
  'New project created successfully',
  'New branch created successfully',
  'License has expired',
  'License Notice - One Day Remaining',
  'License Notice - {n} Days Remaining',
  'No pending code reviews',
  'No {page} found',
  '"{term}" did not match any {page}. Please try again.',
  'Remove all',
  'Retry delete',
  'Retry starting',
  'Set up Git',
  'You have declined the invitation',
  'Loading',
  // §5 Validation rules
  'Name cannot be empty',
  'Please enter a valid URL',
  'Please fill in all fields.',
  'Token name cannot be empty',
  'Empty Name',
  'Environment name cannot be more than 32 characters.',
  'Environment name cannot contain the following characters: ',
  'Environment cannot have the same case-insensitive name.',
  'Choose a unique name, discarding your changes.',
  'Renaming environments makes test data inaccessible.',
  'URL cannot be empty',
  'URL cannot contain the following characters: ',
  'URL must begin with http:// or https://',
  'Incorrect URL structure, only one port is allowed.',
  'Incorrect URL structure, the port must be specified within the host portion.',
  'Incorrect URL structure, the port must be an integer.',
  'Incorrect URL structure, the port must be an integer between 0 and 65535.',
  'Invalid URL: Port cannot be empty',
  'Invalid URL: Port number must be a number',
  'Invalid URL: Port number cannot be greater than 65535',
  'Invalid URL: Hostname cannot be empty',
  'Invalid URL: Hostname can only contain alphanumeric characters and hyphens',
  'No changes detected',
  'Please enter at least one email address.',
  'You cannot invite yourself to the project.',
  'Please enter unique email addresses.',
  'The user is already a member or has been invited to the project.',
  // §6 Roles and permissions
  'You do not have permission to delete this project',
  'You do not have permission to invite members',
  "You can't invite users during trial",
] as const;

describe('spec 01 (shell): the words it quotes', () => {
  it('are all among the words the product ships', () => {
    expect(missingFromProduct(SHELL_WORDS)).toEqual([]);
  });
});

describe('spec 01 (shell) §9: business constants and limits', () => {
  it('gives a 14-day trial and a 3:59 onboarding video', () => {
    expect(Limits.trialDays).toBe(14);
    expect(GETTING_STARTED_VIDEO_SECONDS).toBe(3 * 60 + 59);
  });

  it('caps environment names at 32 characters and cloud recorder sessions at 2 per user', () => {
    expect(Limits.environmentNameMax).toBe(32);
    expect([Limits.maxConcurrentCloudSessions, RecorderLimits.maxSessionsPerUser]).toEqual([2, 2]);
  });

  it('starts on branch main', () => {
    expect(Limits.defaultBranch).toBe('main');
  });

  it('lays out the sidebar at 300 px, 83 px collapsed, collapsing below 1260 px, in a window of at least 1024×660', () => {
    expect([Layout.sidebarOpenWidth, Layout.sidebarCollapsedWidth, Layout.sidebarAutoCollapseBelow]).toEqual([300, 83, 1260]);
    expect([Layout.minWindowWidth, Layout.minWindowHeight]).toEqual([1024, 660]);
  });

  it('truncates user names 18 → 15, emails 21 → 18, menu titles at 37, labels 8 → 7', () => {
    expect(TruncateAt).toEqual({ userName: [18, 15], email: [21, 18], menuTitle: [37, 37], selectorLabel: [8, 7] });
  });

  it('opens tooltips after 800 ms and waits 30 s for a project (10 s for the demo)', () => {
    expect(TOOLTIP_DELAY_MS).toBe(800);
    expect(PROJECT_CREATION_WAIT_MS).toEqual({ regular: 30_000, demo: 10_000 });
  });

  it('asks for the project summary with days 365, page 0, limit 10 by default', () => {
    const body = runsCalls.getDetails.body.parse({ projectId: '6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b' });
    expect(body).toMatchObject({ days: 365, page: 0, limit: 10 });
  });

  it('offers the time ranges last 24 hours, last week, last 2 weeks and all, as 1, 7, 14 and 365 days', () => {
    expect(TIME_RANGES.map((range) => [range.label, range.days])).toEqual([
      ['Last 24 hours', 1],
      ['Last week', 7],
      ['Last 2 weeks', 14],
      ['All', 365],
    ]);
  });
});
