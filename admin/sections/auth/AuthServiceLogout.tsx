import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Loading } from '../../components/Loading';
import { useSession } from '../../state/services';
import { ssoLogoutUrl } from './ssoUrl';

/** Ends the local session and hands the browser to the identity provider's logout. The guard requires auth_service. */
export default function AuthServiceLogout() {
  const session = useSession();
  const [search] = useSearchParams();
  const service = search.get('auth_service') ?? '';
  const left = useRef(false);

  useEffect(() => {
    void session.signOut().then(() => {
      if (left.current) return;
      left.current = true;
      session.leave(ssoLogoutUrl(service));
    });
  }, [session, service]);

  return <Loading label="Signing out of single sign-on…" />;
}
