/**
 * A gate fixture: a small build laid out as the gate serves it (both
 * audiences' home, 404 and security headers, the files a test names, the
 * access manifest and the file index the build writes), the provider's
 * signing keys, access tokens as the provider signs them, and the gate's
 * options for all of them. Used by the gate's tests through inject and a
 * loopback port (test/node/gate.test.ts, test/node/agent-docs-gate.test.ts).
 */
import {randomBytes, randomUUID} from 'node:crypto';
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {exportJWK, generateKeyPair, SignJWT, type JWTPayload} from 'jose';
import type {AccessManifest} from '../../src/auth/access/manifest';
import type {GateOptions} from '../../server/gate';
import {createKeyStore, type KeyStore} from '../../server/keys';
import {writeFileIndex} from '../../scripts/build-index';

export type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export const CLIENT_ID = 'client_test';
export const ISSUER = `https://auth.example.test/user_management/${CLIENT_ID}`;
export const JWKS_URL = new URL(`https://auth.example.test/sso/jwks/${CLIENT_ID}`);
export const ORGANIZATION_ID = 'org_acme';
/** The security headers both fixture builds carry (`_headers.json`, as scripts/security-headers.ts writes them). */
export const FIXTURE_HEADERS = {'Content-Security-Policy': "default-src 'self'", 'X-Content-Type-Options': 'nosniff'};

export function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), {recursive: true});
  writeFileSync(file, content);
}

export interface ProviderKeys {
  /** The provider's signing key, published in `jwks`. */
  keys: KeyPair;
  /** A key the provider never published: its tokens must be refused. */
  strangerKeys: KeyPair;
  jwks: {keys: unknown[]};
}

export async function createProviderKeys(): Promise<ProviderKeys> {
  const keys = await generateKeyPair('RS256');
  const strangerKeys = await generateKeyPair('RS256');
  return {keys, strangerKeys, jwks: {keys: [{...(await exportJWK(keys.publicKey)), kid: 'key-1', alg: 'RS256'}]}};
}

/** An access token as the provider signs one: each its own provider session (`sid`), as each sign-in is. */
export function signToken(key: KeyPair['privateKey'], claims: JWTPayload, expiresIn: string | number = '10m'): Promise<string> {
  const unsigned = new SignJWT({sid: `session_${randomUUID()}`, sub: 'user_test', iss: ISSUER, ...claims}).setProtectedHeader({
    alg: 'RS256',
    kid: 'key-1',
  });
  // A test's own `iat` is kept (setIssuedAt would replace it with now).
  return (claims.iat === undefined ? unsigned.setIssuedAt() : unsigned).setExpirationTime(expiresIn).sign(key);
}

/** A key store that fetches these keys from the fixture's JWKS URL. */
export function fixtureKeyStore(jwks: {keys: unknown[]}): KeyStore {
  return createKeyStore({url: JWKS_URL, fetchJwks: async () => Response.json(jwks)});
}

export interface FixtureBuild {
  /** Files by name, relative to each build's root. */
  public?: Record<string, string>;
  members?: Record<string, string>;
  /** Files the same in both builds. */
  both?: Record<string, string>;
  /** The access manifest's pages, restricted files and search indexes (version 1, base URL `/`). */
  manifest: Pick<AccessManifest, 'pages' | 'files' | 'searchIndexes'>;
}

/** Writes the build into `dir`, as `npm run build` lays it out, file index included. */
export async function writeGateBuild(dir: string, build: FixtureBuild): Promise<void> {
  for (const audience of ['public', 'members'] as const) {
    const root = path.join(dir, audience);
    write(path.join(root, 'index.html'), `<h1>Home (${audience})</h1>`);
    write(path.join(root, '404.html'), `<h1>Not found (${audience})</h1>`);
    write(path.join(root, '_headers.json'), JSON.stringify(FIXTURE_HEADERS));
    for (const [name, content] of Object.entries({...build.both, ...build[audience]})) {
      write(path.join(root, name), content);
    }
  }
  write(path.join(dir, 'access-manifest.json'), JSON.stringify({version: 1, baseUrl: '/', ...build.manifest}));
  await writeFileIndex(dir);
}

/** The gate's options for a fixture build: this issuer, client and organisation, a fresh session secret. */
export function fixtureGateOptions(buildDir: string, jwks: KeyStore, overrides: Partial<GateOptions> = {}): GateOptions {
  return {
    buildDir,
    jwks,
    issuers: [ISSUER],
    clientId: CLIENT_ID,
    organizationId: ORGANIZATION_ID,
    sessionSecrets: [randomBytes(32)],
    ...overrides,
  };
}
