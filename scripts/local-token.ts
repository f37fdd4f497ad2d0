/**
 * `npm run -s token -- [user id]`: an access token of the LOCAL sign-in
 * provider (scripts/local-provider, started by `npm run serve` or
 * `npm start` when WORKOS_CLIENT_ID is unset), for trying the MCP endpoint
 * with an agent: `export PORTAL_TOKEN=$(npm run -s token -- user_developer)`.
 * It signs the test user in as the browser would (authorize, choose the
 * user, code exchange with PKCE) and prints only the token, on stdout, so it
 * lands in a variable, never in a URL or a log. Test users:
 * scripts/local-provider/users.ts (user_admin, user_developer, …). Tokens
 * live as the provider's (5 minutes by default): run it again after.
 */
import {createHash, randomBytes} from 'node:crypto';
import {DEFAULT_LOCAL_AUTH_PORT, LOCAL_CLIENT_ID} from '../src/auth/config';

export interface LocalTokenOptions {
  /** Default http://localhost:4010 (LOCAL_AUTH_PORT). */
  providerUrl?: string;
  userId: string;
  /** An origin the provider accepts for redirect_uri: the site's (default http://localhost:3000, PORT). */
  siteOrigin?: string;
}

export async function localAccessToken({userId, providerUrl, siteOrigin}: LocalTokenOptions): Promise<string> {
  const provider = providerUrl ?? `http://localhost:${process.env.LOCAL_AUTH_PORT ?? DEFAULT_LOCAL_AUTH_PORT}`;
  const site = siteOrigin ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/user_management/authorize', provider);
  authorize.search = new URLSearchParams({
    client_id: LOCAL_CLIENT_ID,
    redirect_uri: `${site}/`,
    response_type: 'code',
    provider: 'authkit',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const page = await fetch(authorize);
  const authorizationId = /name="authorization_id" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!page.ok || !authorizationId) {
    throw new Error(`the local provider at ${provider} did not offer a sign-in (HTTP ${page.status}); is it running (npm run serve)?`);
  }
  const chosen = await fetch(new URL('/user_management/authorize/complete', provider), {
    method: 'POST',
    headers: {'Content-Type': 'application/x-www-form-urlencoded'},
    body: new URLSearchParams({authorization_id: authorizationId, user_id: userId}),
    redirect: 'manual',
  });
  const code = new URL(chosen.headers.get('location') ?? '', site).searchParams.get('code');
  if (!code) {
    throw new Error(`the local provider refused the user "${userId}" (HTTP ${chosen.status}); see scripts/local-provider/users.ts`);
  }
  const exchange = await fetch(new URL('/user_management/authenticate', provider), {
    method: 'POST',
    headers: {'Content-Type': 'application/json', Origin: site},
    body: JSON.stringify({client_id: LOCAL_CLIENT_ID, grant_type: 'authorization_code', code, code_verifier: verifier}),
  });
  const body = (await exchange.json()) as {access_token?: string; error_description?: string};
  if (!exchange.ok || !body.access_token) {
    throw new Error(`the code exchange failed (HTTP ${exchange.status}): ${body.error_description ?? 'no access token'}`);
  }
  return body.access_token;
}

if (require.main === module) {
  localAccessToken({userId: process.argv[2] ?? 'user_developer'})
    .then((token) => process.stdout.write(`${token}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
