import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session';

/** Guards signed-in routes: without a token the user goes to /login?callbackUrl=<here> (spec 01 §2). */
export function RequireAuth() {
  const { token, signedOut } = useSession();
  const location = useLocation();
  if (!token) {
    // After a deliberate logout there is nothing to come back to.
    const to = signedOut
      ? '/login'
      : `/login?${new URLSearchParams({ callbackUrl: location.pathname + location.search + location.hash }).toString()}`;
    return <Navigate to={to} replace />;
  }
  return <Outlet />;
}
