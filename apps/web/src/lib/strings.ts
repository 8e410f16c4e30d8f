import { Limits, Messages } from '@rehearse/contract';

/**
 * Spec strings the web app shows that the contract's `Messages` catalogue does not hold yet.
 * They move into `packages/contract/src/messages.ts` once the lead adds them there; until then
 * this is the only place a user-facing sentence of the shell may live.
 */
export const Strings = {
  // Spec 01 §2: screens and dialogs (exact wording)
  notFoundTitle: 'Page Not Found!',
  notFoundText: "Sorry, we couldn't find the page you were looking for.",
  notFoundGoBack: 'GO BACK',
  fatalErrorText: 'Something went wrong. Please reload the page.',
  fatalErrorReload: 'Click to Reload',
  sessionExpiredTitle: 'Session Expired',
  sessionExpiredReload: 'Reload',
  windowTooSmallTitle: 'Window Too Small',
  windowTooSmallText: 'Rehearse needs a window of at least 1024 × 660 pixels. Please enlarge the window or zoom out.',

  // Spec 01 §2: layout
  appName: 'Rehearse',
  navDashboard: 'Dashboard',
  navFeatures: 'Features',
  navExecutions: 'Executions',
  navReports: 'Reports',
  navCodeReview: 'Code Review',
  navTestData: 'Test Data',
  navSettings: 'Settings',
  mainNavigation: 'Main navigation',
  skipToContent: 'Skip to content',
  collapseSidebar: 'Collapse sidebar',
  expandSidebar: 'Expand sidebar',
  userMenuGetStarted: 'Get Started',
  userMenuLogout: 'Logout',
  userMenuLabel: 'Account menu',
  projectSelectorLabel: 'Project',
  projectSelectorSwitchFailed: 'Could not switch project. Please try again.',
  logoutFailed: 'Could not reach the server; you are signed out on this device.',

  // Spec 01 §4: licence
  licenceExpiredTitle: 'License has expired',
  licenceOneDayTitle: 'License Notice - One Day Remaining',
  licenceDaysTitle: (days: number) => `License Notice - ${days} Days Remaining`,
  licenceDaysLeft: (days: number) => (days === 1 ? '1 day left' : `${days} days left`),
  licenceExpiredShort: 'Expired',

  // Our sign-in / sign-up page (the spec's hosted login widget)
  loginTitle: 'Welcome to Rehearse',
  loginSubtitle: 'Record, write, run and review end-to-end tests kept as Gherkin.',
  signInIntro: 'Sign in to continue to your projects.',
  loginPointGherkin: 'Gherkin features kept in git',
  loginPointRuns: 'Runs in Chromium, on the server or in your CI',
  loginPointReview: 'Healed locators land in Code Review',
  signInTab: 'Sign in',
  signUpTab: 'Create account',
  signInSubmit: 'Sign in',
  signInBusy: 'Signing in…',
  signUpSubmit: 'Create account',
  signUpBusy: 'Creating account…',
  signUpTrialNote: `New accounts start with a ${Limits.trialDays}-day trial and a project named ${Messages.defaultProjectName}.`,
  fieldEmail: 'Email',
  fieldPassword: 'Password',
  fieldFirstName: 'First name',
  fieldLastName: 'Last name',
  fieldCompany: 'Company (optional)',
  passwordHint: 'At least 8 characters.',

  // Home and project guard (spec 01 §2)
  loading: 'Loading…',
  noProjects: 'You have no projects yet.',
  projectsLoadFailed: 'Could not load your projects.',
  retry: 'Try again',

  // Dashboard placeholder
  dashboardGreeting: (name: string) => `Hi ${name}, here is your project at a glance.`,
  dashboardLicence: 'License',
  dashboardLicenceActive: (days: number) => `${days} ${days === 1 ? 'day' : 'days'} left`,
  dashboardComingSoon: 'Stats, latest executions and code reviews will appear here.',

  // Screens not built yet
  screenMemory: 'Application memory',
  screenCodeCleanup: 'Unused steps',
  comingSoonTitle: (screen: string) => `${screen} is coming soon`,
  comingSoonText: 'This screen is part of an upcoming release of Rehearse.',
} as const;
