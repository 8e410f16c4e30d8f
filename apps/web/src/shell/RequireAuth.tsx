import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session';

/** Guards signed-in routes: without a token the user goes to /login?callbackUrl=<here> (spec 01 §2). */
export function RequireAuth() {
  const { token, signedOut } = useSession();
  const location = useLocation();
  if (!token) {
    const here = location.pathname + location.search + location.hash;
    // After a deliberate logout there is nothing to come back to, and home needs no callback.
    const to = signedOut || here === '/' ? '/login' : `/login?${new URLSearchParams({ callbackUrl: here }).toString()}`;
    return <Navigate to={to} replace />;
  }
  return <Outlet />;
}
