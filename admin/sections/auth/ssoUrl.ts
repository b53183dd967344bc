/** Single sign-on through DUO: the server's start page, told to come back to an auto-submitting login. */
export const SSO_SERVICE = 'duo';

export function ssoStartUrl(origin: string, redirect: string | null, service: string = SSO_SERVICE): string {
  const back = new URLSearchParams({ submit: '1', auth_service: service });
  if (redirect) back.set('redirect', redirect);
  const target = `${origin}/login?${back.toString()}`;
  return `/jwt/saml?auth_service=${encodeURIComponent(service)}&auth_target=${encodeURIComponent(target)}`;
}

export const ssoLogoutUrl = (service: string): string => `/jwt/saml/logout?auth_service=${encodeURIComponent(service)}`;
