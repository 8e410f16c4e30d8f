import { SSO_LANDING_PATH } from '@rehearse/contract';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { Toaster } from 'sonner';
import { FatalErrorBoundary } from './components/FatalErrorBoundary';
import { RequireAuth } from './shell/RequireAuth';
import { SessionExpiredDialog } from './shell/SessionExpiredDialog';
import { FullPageSpinner } from './components/Spinner';
import { TooltipProvider } from './components/Tooltip';
import { WindowTooSmall } from './shell/WindowTooSmall';
import { logActivity } from './lib/activity-log';
import { TOAST_DURATION_MS } from './lib/notify';
import { persistOptions, queryClient, revalidateAfterRestore } from './lib/queryClient';
import { HomePage } from './routes/home/HomePage';
import { NotFoundPage } from './routes/not-found/NotFoundPage';
import { ProjectLayout } from './routes/project/ProjectLayout';

/** Route-level code splitting: each screen is its own chunk, loaded when first visited. */
function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const LoginPage = screen(() => import('./routes/login/LoginPage'), 'LoginPage');
const SsoLandingPage = screen(() => import('./routes/sso/SsoLandingPage'), 'SsoLandingPage');
const DashboardPage = screen(() => import('./routes/dashboard/DashboardPage'), 'DashboardPage');
const CreateProjectPage = screen(() => import('./routes/projects/CreateProjectPage'), 'CreateProjectPage');
const InvitationPage = screen(() => import('./routes/invitation/InvitationPage'), 'InvitationPage');
const SettingsLayout = screen(() => import('./routes/settings/SettingsLayout'), 'SettingsLayout');
const MembersPage = screen(() => import('./routes/settings/MembersPage'), 'MembersPage');
const AccessTokensPage = screen(() => import('./routes/settings/AccessTokensPage'), 'AccessTokensPage');
const PrivateRepositoryPage = screen(() => import('./routes/settings/PrivateRepositoryPage'), 'PrivateRepositoryPage');
const RetentionPage = screen(() => import('./routes/settings/RetentionPage'), 'RetentionPage');
const AdminLayout = screen(() => import('./routes/admin/AdminLayout'), 'AdminLayout');
const LegacyAdminRedirect = screen(() => import('./routes/admin/AdminLayout'), 'LegacyAdminRedirect');
const AdminUsersPage = screen(() => import('./routes/admin/AdminUsersPage'), 'AdminUsersPage');
const AdminProjectsPage = screen(() => import('./routes/admin/AdminProjectsPage'), 'AdminProjectsPage');
const AdminWorkersPage = screen(() => import('./routes/admin/AdminWorkersPage'), 'AdminWorkersPage');
const AdminSignupPage = screen(() => import('./routes/admin/AdminSignupPage'), 'AdminSignupPage');
const AdminSessionsJobsPage = screen(() => import('./routes/admin/AdminSessionsJobsPage'), 'AdminSessionsJobsPage');
const AdminActivityPage = screen(() => import('./routes/admin/AdminActivityPage'), 'AdminActivityPage');
const DocsPage = screen(() => import('./routes/docs/DocsPage'), 'DocsPage');
const OnboardingPage = screen(() => import('./routes/onboarding/OnboardingPage'), 'OnboardingPage');
const TwoFactorPage = screen(() => import('./routes/account/TwoFactorPage'), 'TwoFactorPage');
const CodeCleanupPage = screen(() => import('./routes/code-cleanup/CodeCleanupPage'), 'CodeCleanupPage');
const ReportsPage = screen(() => import('./routes/reports/ReportsPage'), 'ReportsPage');
const RunReportPage = screen(() => import('./routes/reports/RunReportPage'), 'RunReportPage');
const ScenarioReportPage = screen(() => import('./routes/reports/ScenarioReportPage'), 'ScenarioReportPage');
const ExecutionsPage = screen(() => import('./routes/executions/ExecutionsPage'), 'ExecutionsPage');
const ExecutionDetailPage = screen(() => import('./routes/executions/ExecutionDetailPage'), 'ExecutionDetailPage');
const RunInstructionsPage = screen(() => import('./routes/executions/RunInstructionsPage'), 'RunInstructionsPage');
const CodeReviewPage = screen(() => import('./routes/code-review/CodeReviewPage'), 'CodeReviewPage');
const MemoryPage = screen(() => import('./routes/memory/MemoryPage'), 'MemoryPage');
const FeaturesPage = screen(() => import('./routes/features/FeaturesPage'), 'FeaturesPage');
const StepsReferencePage = screen(() => import('./routes/features/StepsReferencePage'), 'StepsReferencePage');
const TestDataPage = screen(() => import('./routes/test-data/TestDataPage'), 'TestDataPage');
const CredentialPage = screen(() => import('./routes/test-data/CredentialPage'), 'CredentialPage');
const OpenRecorderPage = lazy(async () => {
  const { OpenRecorderPage } = await import('./routes/recorder/OpenRecorderPage');
  return { default: OpenRecorderPage };
});
const RemoteRecorderPage = lazy(async () => {
  const { RemoteRecorderPage } = await import('./routes/recorder/RemoteRecorderPage');
  return { default: RemoteRecorderPage };
});

/** One activity-log entry per screen the user opens (spec 02 §9). */
function NavigationLog() {
  const { pathname } = useLocation();
  useEffect(() => {
    logActivity({ type: 'navigate' });
  }, [pathname]);
  return null;
}

function AppRoutes() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path={SSO_LANDING_PATH} element={<SsoLandingPage />} />
        {/* The documentation the product serves: readable before signing in, and offline. */}
        <Route path="docs" element={<DocsPage />} />
        <Route path="docs/:slug" element={<DocsPage />} />
        <Route element={<RequireAuth />}>
          <Route index element={<HomePage />} />
          <Route path="onboarding" element={<OnboardingPage />} />
          <Route path="account/two-factor" element={<TwoFactorPage />} />
          <Route path="projects/new" element={<CreateProjectPage />} />
          <Route path="invitation" element={<InvitationPage />} />
          <Route path="open-recorder/:operation" element={<OpenRecorderPage />} />
          <Route path="remote-recorder/:cmd" element={<RemoteRecorderPage />} />
          {/* Administration is the server's, not a project's: a layout of its own (issue 47). */}
          <Route path="admin" element={<AdminLayout />}>
            <Route index element={<Navigate to="users" replace />} />
            <Route path="users" element={<AdminUsersPage />} />
            <Route path="projects" element={<AdminProjectsPage />} />
            <Route path="workers" element={<AdminWorkersPage />} />
            <Route path="sign-up" element={<AdminSignupPage />} />
            <Route path="sessions-and-jobs" element={<AdminSessionsJobsPage />} />
            <Route path="activity" element={<AdminActivityPage />} />
          </Route>
          <Route path=":projectId/admin/*" element={<LegacyAdminRedirect />} />
          <Route path=":projectId" element={<ProjectLayout />}>
            <Route index element={<Navigate to="dashboard" replace />} />
            <Route path="dashboard" element={<DashboardPage />} />
            <Route path="features" element={<FeaturesPage />} />
            <Route path="steps-reference" element={<StepsReferencePage />} />
            <Route path="test-data" element={<TestDataPage />} />
            <Route path="test-data/add" element={<CredentialPage />} />
            <Route path="test-data/edit/:index" element={<CredentialPage />} />
            <Route path="settings" element={<Navigate to="members" replace />} />
            <Route element={<SettingsLayout />}>
              <Route path="settings/members" element={<MembersPage />} />
              <Route path="settings/access-tokens" element={<AccessTokensPage />} />
              <Route
                path="settings/new-access-token"
                element={<Navigate to="../settings/access-tokens" replace state={{ generate: true }} />}
              />
              <Route path="settings/private-repository" element={<PrivateRepositoryPage />} />
              <Route path="settings/retention" element={<RetentionPage />} />
              <Route path="code-cleanup" element={<CodeCleanupPage />} />
            </Route>
            <Route path="executions" element={<ExecutionsPage />} />
            <Route path="execution/:execId" element={<ExecutionDetailPage />} />
            <Route path="runs/instructions" element={<RunInstructionsPage />} />
            <Route path="runs" element={<ReportsPage />} />
            <Route path="ai-oversight" element={<CodeReviewPage />} />
            <Route path="memory" element={<MemoryPage />} />
            <Route path="run-report/:runId" element={<RunReportPage />} />
            <Route path="run-report/:runId/:testId" element={<RunReportPage />} />
            <Route path="scenario-report/:scenarioId" element={<ScenarioReportPage />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

/** The whole app: error boundary, persisted server-state cache, routes and the app-wide overlays. */
export function App() {
  return (
    <FatalErrorBoundary>
      <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions} onSuccess={() => void revalidateAfterRestore()}>
        <TooltipProvider>
          <BrowserRouter>
            <NavigationLog />
            <AppRoutes />
          </BrowserRouter>
          <SessionExpiredDialog />
          <WindowTooSmall />
          {/* Bottom right: at the top (even below the 64 px top bar) a toast covered each page's own
              primary action (Add row, Run scenario) for its 3 s; nothing of the shell lives down here. */}
          <Toaster position="bottom-right" offset={{ bottom: 24, right: 24 }} duration={TOAST_DURATION_MS} richColors closeButton />
        </TooltipProvider>
      </PersistQueryClientProvider>
    </FatalErrorBoundary>
  );
}
