/**
 * Spec strings the web app shows that the contract's `Messages` catalogue does not hold yet.
 * They move into `packages/contract/src/messages.ts` once the lead adds them there; until then
 * this is the only place a user-facing sentence of the shell may live.
 */
export declare const Strings: {
    readonly notFoundTitle: "Page Not Found!";
    readonly notFoundText: "Sorry, we couldn't find the page you were looking for.";
    readonly notFoundGoBack: "GO BACK";
    readonly fatalErrorText: "Something went wrong. Please reload the page.";
    readonly fatalErrorReload: "Click to Reload";
    readonly sessionExpiredTitle: "Session Expired";
    readonly sessionExpiredReload: "Reload";
    readonly windowTooSmallTitle: "Window Too Small";
    readonly windowTooSmallText: "Rehearse needs a window of at least 1024 × 660 pixels. Please enlarge the window or zoom out.";
    readonly appName: "Rehearse";
    readonly navDashboard: "Dashboard";
    readonly navFeatures: "Features";
    readonly navExecutions: "Executions";
    readonly navReports: "Reports";
    readonly navCodeReview: "Code Review";
    readonly navTestData: "Test Data";
    readonly navSettings: "Settings";
    readonly mainNavigation: "Main navigation";
    readonly skipToContent: "Skip to content";
    readonly collapseSidebar: "Collapse sidebar";
    readonly expandSidebar: "Expand sidebar";
    readonly userMenuGetStarted: "Get Started";
    readonly userMenuLogout: "Logout";
    readonly userMenuLabel: "Account menu";
    readonly projectSelectorLabel: "Project";
    readonly projectSelectorSwitchFailed: "Could not switch project. Please try again.";
    readonly logoutFailed: "Could not reach the server; you are signed out on this device.";
    readonly licenceExpiredTitle: "License has expired";
    readonly licenceOneDayTitle: "License Notice - One Day Remaining";
    readonly licenceDaysTitle: (days: number) => string;
    readonly licenceDaysLeft: (days: number) => string;
    readonly licenceExpiredShort: "Expired";
    readonly loginTitle: "Welcome to Rehearse";
    readonly loginSubtitle: "Record, write, run and review end-to-end tests kept as Gherkin.";
    readonly loginPointGherkin: "Gherkin features kept in git";
    readonly loginPointRuns: "Runs in Chromium, on the server or in your CI";
    readonly loginPointReview: "Healed locators land in Code Review";
    readonly signInTab: "Sign in";
    readonly signUpTab: "Create account";
    readonly signInSubmit: "Sign in";
    readonly signInBusy: "Signing in…";
    readonly signUpSubmit: "Create account";
    readonly signUpBusy: "Creating account…";
    readonly signUpTrialNote: "New accounts start with a 14-day trial and a project named Default.";
    readonly fieldEmail: "Email";
    readonly fieldPassword: "Password";
    readonly fieldFirstName: "First name";
    readonly fieldLastName: "Last name";
    readonly fieldCompany: "Company (optional)";
    readonly passwordHint: "At least 8 characters.";
    readonly loading: "Loading…";
    readonly noProjects: "You have no projects yet.";
    readonly projectsLoadFailed: "Could not load your projects.";
    readonly retry: "Try again";
    readonly dashboardGreeting: (name: string) => string;
    readonly dashboardLicence: "License";
    readonly dashboardLicenceActive: (days: number) => string;
    readonly dashboardComingSoon: "Stats, latest executions and code reviews will appear here.";
    readonly screenMemory: "Application memory";
    readonly screenCodeCleanup: "Unused steps";
    readonly comingSoonTitle: (screen: string) => string;
    readonly comingSoonText: "This screen is part of an upcoming release of Rehearse.";
};
