import {readAuthSettings, resolveRedirectUri} from '../../src/auth/config';

const SITE = 'https://docs.example.com';

describe('sign-in settings from the environment', () => {
  it('uses the local provider when no WorkOS client id is set', () => {
    expect(readAuthSettings({}, '/')).toEqual({
      enabled: true,
      clientId: 'client_local',
      organizationId: null,
      apiHostname: 'localhost',
      port: 4010,
      https: false,
      redirectUri: null,
      basePath: '/',
      devMode: true,
    });
  });

  it('reads a WorkOS configuration', () => {
    const settings = readAuthSettings(
      {
        WORKOS_CLIENT_ID: 'client_123',
        WORKOS_ORGANIZATION_ID: 'org_1',
        WORKOS_API_HOSTNAME: 'auth.example.com',
        WORKOS_API_PORT: '8443',
        WORKOS_API_HTTPS: 'true',
        WORKOS_REDIRECT_URI: 'https://docs.example.com/callback',
        WORKOS_DEV_MODE: 'false',
      },
      '/',
    );
    expect(settings).toEqual({
      enabled: true,
      clientId: 'client_123',
      organizationId: 'org_1',
      apiHostname: 'auth.example.com',
      port: 8443,
      https: true,
      redirectUri: 'https://docs.example.com/callback',
      basePath: '/',
      devMode: false,
    });
  });

  it('defaults the redirect URI to the origin the site is served from plus baseUrl, and the host to api.workos.com', () => {
    const settings = readAuthSettings({WORKOS_CLIENT_ID: 'client_123'}, '/portal/');
    expect(resolveRedirectUri(settings, SITE)).toBe('https://docs.example.com/portal/');
    expect(resolveRedirectUri(settings, 'http://localhost:4321')).toBe('http://localhost:4321/portal/');
    expect(resolveRedirectUri({...settings, redirectUri: 'https://docs.example.com/callback'}, 'http://localhost:4321')).toBe(
      'https://docs.example.com/callback',
    );
    expect(settings.apiHostname).toBe('api.workos.com');
    expect(settings.https).toBe(true);
  });

  it('turns sign-in off with AUTH_DISABLED=true', () => {
    expect(readAuthSettings({AUTH_DISABLED: 'true'}, '/').enabled).toBe(false);
  });

  it.each([
    [{WORKOS_CLIENT_ID: 'c', WORKOS_API_PORT: 'eighty'}, 'WORKOS_API_PORT'],
    [{WORKOS_CLIENT_ID: 'c', WORKOS_API_PORT: '70000'}, 'WORKOS_API_PORT'],
    [{WORKOS_CLIENT_ID: 'c', WORKOS_API_HTTPS: 'maybe'}, 'WORKOS_API_HTTPS'],
    [{WORKOS_DEV_MODE: 'yes'}, 'WORKOS_DEV_MODE'],
    [{AUTH_DISABLED: '1'}, 'AUTH_DISABLED'],
    [{WORKOS_CLIENT_ID: 'c', WORKOS_API_HOSTNAME: 'https://api.workos.com'}, 'WORKOS_API_HOSTNAME'],
    [{WORKOS_REDIRECT_URI: 'javascript:alert(1)'}, 'WORKOS_REDIRECT_URI'],
    [{LOCAL_AUTH_PORT: 'x'}, 'LOCAL_AUTH_PORT'],
    // Blank is not absent: the local provider only when the variable is not set at all.
    [{WORKOS_CLIENT_ID: ''}, 'WORKOS_CLIENT_ID'],
    [{WORKOS_CLIENT_ID: ' \t '}, 'WORKOS_CLIENT_ID'],
    [{WORKOS_CLIENT_ID: '', AUTH_DISABLED: 'true'}, 'WORKOS_CLIENT_ID'],
  ])('stops with a message naming the variable for %p', (env, variable) => {
    expect(() => readAuthSettings(env, '/')).toThrow(new RegExp(`^Invalid ${variable}=`));
  });
});
