import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FullPageSpinner } from '../../components/Spinner';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { safeCallbackUrl } from '../../lib/format';
import { session } from '../../lib/session';
import { Strings } from '../../lib/strings';

/**
 * Where single sign-on ends: the server's callback sends the browser here with the new session
 * token in the fragment (which no server sees). The token is kept like a password sign-in's, the
 * fragment is wiped from the address bar and history, and the user goes on to where they were.
 */
export function SsoLandingPage() {
  useDocumentTitle(Strings.ssoLanding);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const token = fragment.get('token');
    window.history.replaceState(null, '', window.location.pathname);
    if (!token) {
      void navigate('/login?sso=failed', { replace: true });
      return;
    }
    queryClient.clear();
    session.signIn(token);
    void navigate(safeCallbackUrl(fragment.get('callbackUrl')), { replace: true });
  }, [navigate, queryClient]);
  return <FullPageSpinner label={Strings.ssoLanding} />;
}
