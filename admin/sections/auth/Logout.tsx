import { useEffect, useRef } from 'react';
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { Loading } from '../../components/Loading';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useSession } from '../../state/services';

// Password accounts report no provider (or 'local'); any other provider is a single sign-on service.
const ssoProvider = (provider: string | null | undefined): string | null => (provider && provider !== 'local' ? provider : null);

/** Revokes the session, then goes to the login page, or to the provider's logout for SSO users. */
export default function Logout() {
  const session = useSession();
  const navigate = useNavigate();
  const user = useAtomValue(currentUserAtom);
  const provider = useRef(ssoProvider(user?.identityProvider));

  useEffect(() => {
    let current = true;
    void session.signOut().then(() => {
      if (!current) return;
      const service = provider.current;
      navigate(service ? `${pathTo('AuthServiceLogout')}?auth_service=${encodeURIComponent(service)}` : pathTo('Login'), {
        replace: true,
      });
    });
    return () => {
      current = false;
    };
  }, [session, navigate]);

  return <Loading label="Signing out…" />;
}
