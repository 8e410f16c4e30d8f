import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { Toaster } from 'sonner';
import { FatalErrorBoundary } from './components/FatalErrorBoundary';
import { Header } from './components/Header';
import { RequireAuth } from './components/RequireAuth';
import { SessionExpiredDialog } from './components/SessionExpiredDialog';
import { WindowTooSmall } from './components/WindowTooSmall';
import { queryClient } from './lib/queryClient';
import { Strings } from './lib/strings';
import { DashboardPage } from './routes/dashboard/DashboardPage';
import { HomePage } from './routes/home/HomePage';
import { LoginPage } from './routes/login/LoginPage';
import { NotFoundPage } from './routes/not-found/NotFoundPage';
import { ComingSoonPage } from './routes/placeholder/ComingSoonPage';
import { ProjectLayout } from './routes/project/ProjectLayout';

/** Toasts close after 3 s (spec 01 §4). */
const TOAST_DURATION_MS = 3000;

/** Project screens of spec 01 §2 that are not built yet: they show "coming soon" in the layout. */
const comingSoon: { path: string; screen: string }[] = [
  { path: 'features', screen: Strings.navFeatures },
  { path: 'executions', screen: Strings.navExecutions },
  { path: 'execution/:execId', screen: Strings.navExecutions },
  { path: 'runs', screen: Strings.navReports },
  { path: 'runs/instructions', screen: Strings.navReports },
  { path: 'run-report/:runId', screen: Strings.navReports },
  { path: 'run-report/:runId/:testId', screen: Strings.navReports },
  { path: 'scenario-report/:scenarioId', screen: Strings.navReports },
  { path: 'ai-oversight', screen: Strings.navCodeReview },
  { path: 'test-data/*', screen: Strings.navTestData },
  { path: 'memory', screen: Strings.screenMemory },
  { path: 'code-cleanup', screen: Strings.screenCodeCleanup },
  { path: 'settings/members', screen: Strings.navSettings },
  { path: 'settings/access-tokens', screen: Strings.navSettings },
  { path: 'settings/private-repository', screen: Strings.navSettings },
  { path: 'settings/new-access-token', screen: Strings.navSettings },
];

function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route element={<RequireAuth />}>
        <Route index element={<HomePage />} />
        <Route
          path="onboarding"
          element={
            <div className="flex h-full flex-col">
              <Header />
              <ComingSoonPage screen={Strings.userMenuGetStarted} />
            </div>
          }
        />
        <Route path=":projectId" element={<ProjectLayout />}>
          <Route index element={<Navigate to="dashboard" replace />} />
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="settings" element={<Navigate to="members" replace />} />
          {comingSoon.map(({ path, screen }) => (
            <Route key={path} path={path} element={<ComingSoonPage screen={screen} />} />
          ))}
        </Route>
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

/** The whole app: error boundary, server-state cache, routes and the app-wide overlays. */
export function App() {
  return (
    <FatalErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <SessionExpiredDialog />
        <WindowTooSmall />
        <Toaster position="top-right" duration={TOAST_DURATION_MS} richColors closeButton />
      </QueryClientProvider>
    </FatalErrorBoundary>
  );
}
