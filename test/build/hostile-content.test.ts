/**
 * Restricted means every file of the page, for any content an author adds.
 * A throwaway copy of the site gets the hostile-content fixture
 * (test/support/hostileContent.ts): an admin-only page with an image over the
 * inline limit, an attachment, a lazily loaded module and a tag of its own,
 * and a folder marked signed-in in `_category_.yml`. The copy is built with
 * `npm run build`; then every file of both builds is requested through the
 * gate as a signed-out reader, a member without the admin role and an admin,
 * and the public build through nginx: nothing of a page reaches a reader who
 * may not read it, and the admin gets everything. The leak check passes on
 * that build and fails once its computed list is tampered with.
 *
 * Separately, `access:` on a page under src/pages stops the build, naming it.
 */
import {spawnSync} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {gunzipSync} from 'node:zlib';
import type {FastifyInstance} from 'fastify';
import {exportJWK, generateKeyPair, SignJWT, type JWTPayload} from 'jose';
import type {AccessManifest} from '../../plugins/access/manifest';
import {runLeakCheck} from '../../scripts/leak-check';
import {startNginx, type NginxServer} from '../../scripts/serve-nginx';
import {filesUnder} from '../../plugins/support/files';
import {freePort} from '../../scripts/support/ports';
import {createGate} from '../../server/gate';
import {createKeyStore} from '../../server/keys';
import {
  ADMIN_PAGE_ROUTE,
  FOLDER_PAGE_ROUTE,
  MARKERS,
  SRC_PAGE,
  TAG_ROUTE,
  writeHostileContent,
  writeSrcPageWithAccess,
} from '../support/hostileContent';
import {copySite} from '../../scripts/support/siteCopy';

const ISSUER = 'https://auth.example.test/user_management/client_test';
const BUILD_TIMEOUT_MS = 600_000;

function build(siteDir: string): {status: number | null; output: string} {
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: siteDir,
    encoding: 'utf8',
    env: {...process.env, PORTAL_BUILD_ID: 'hostile-content'},
    timeout: BUILD_TIMEOUT_MS,
  });
  return {status: result.status, output: `${result.stdout}${result.stderr}`};
}

interface Reader {
  name: string;
  cookie: string | null;
  /** Markers this reader may receive. */
  mayReceive: (keyof typeof MARKERS)[];
  mayReceiveImage: boolean;
}

let siteDir: string;
let manifest: AccessManifest;
let image: Buffer;
let gate: FastifyInstance;
let nginx: NginxServer;
let readers: Reader[];
/** Every file name of both builds, as a URL path. */
let urls: string[];

beforeAll(async () => {
  siteDir = copySite('portal-hostile-');
  ({image} = writeHostileContent(siteDir));
  const built = build(siteDir);
  if (built.status !== 0) {
    throw new Error(`the hostile-content site did not build:\n${built.output.slice(-4000)}`);
  }
  manifest = JSON.parse(readFileSync(path.join(siteDir, 'build', 'access-manifest.json'), 'utf8')) as AccessManifest;
  const keys = await generateKeyPair('RS256');
  const jwks = {keys: [{...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256'}]};
  const sign = (claims: JWTPayload) =>
    new SignJWT({sid: `session_${randomBytes(4).toString('hex')}`, sub: 'user_hostile', org_id: 'org_acme', ...claims})
      .setProtectedHeader({alg: 'RS256', kid: 'k1'})
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(keys.privateKey);
  gate = await createGate({
    buildDir: path.join(siteDir, 'build'),
    jwks: createKeyStore({url: new URL('https://auth.example.test/jwks'), fetchJwks: async () => Response.json(jwks)}),
    issuers: [ISSUER],
    clientId: 'client_test',
    organizationId: 'org_acme',
    sessionSecrets: [randomBytes(32)],
  });
  const cookieFor = async (claims: JWTPayload) => {
    const response = await gate.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {host: 'localhost'},
      payload: {accessToken: await sign(claims)},
    });
    // Every cookie the gate sets, as a browser would send them back (the session's name is the gate's business).
    const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0] as string);
    if (response.statusCode !== 200 || cookies.length === 0) {
      throw new Error(`could not start a gate session: ${response.statusCode} ${response.body}`);
    }
    return cookies.join('; ');
  };
  readers = [
    {name: 'signed out', cookie: null, mayReceive: [], mayReceiveImage: false},
    {
      name: 'a member without the admin role',
      cookie: await cookieFor({role: 'member', permissions: ['docs:read']}),
      mayReceive: ['folderPage'],
      mayReceiveImage: false,
    },
    {
      name: 'an admin',
      cookie: await cookieFor({role: 'admin', roles: ['admin', 'member']}),
      mayReceive: ['adminProse', 'lazyModule', 'attachment', 'folderPage'],
      mayReceiveImage: true,
    },
  ];
  const names = new Set(
    ['public', 'members'].flatMap((audience) => filesUnder(path.join(siteDir, 'build', audience)).map(({relative}) => relative)),
  );
  urls = [...names].map((name) => `/${name}`).concat(ADMIN_PAGE_ROUTE, FOLDER_PAGE_ROUTE, TAG_ROUTE);
  nginx = await startNginx(await freePort(), {publicDir: path.join(siteDir, 'build', 'public')});
}, BUILD_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await gate?.close();
  await nginx?.stop();
  if (siteDir) {
    rmSync(siteDir, {recursive: true, force: true});
  }
});

/** What a reader received, over every URL: the markers found and whether the image's bytes came. */
async function everythingFor(fetchOne: (url: string) => Promise<Buffer>): Promise<{markers: Set<string>; image: boolean; where: string[]}> {
  const markers = new Set<string>();
  const where: string[] = [];
  let gotImage = false;
  for (const url of urls) {
    const raw = await fetchOne(url);
    // Search fragments and index chunks are gzip inside: look at what they hold.
    const body = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
    const text = body.toString('utf8');
    for (const [key, marker] of Object.entries(MARKERS)) {
      if (text.includes(marker)) {
        markers.add(key);
        where.push(`${key} in ${url}`);
      }
    }
    if (body.includes(image)) {
      gotImage = true;
      where.push(`image in ${url}`);
    }
  }
  return {markers, image: gotImage, where};
}

describe('the hostile-content fixture', () => {
  it('places every file of the restricted pages, computed from the build', () => {
    const admin = manifest.pages.find((page) => page.route === ADMIN_PAGE_ROUTE);
    const folder = manifest.pages.find((page) => page.route === FOLDER_PAGE_ROUTE);
    expect(admin?.rule).toEqual({kind: 'roles', roles: ['admin'], permissions: []});
    // The folder default from _category_.yml.
    expect(folder?.rule).toEqual({kind: 'signed-in'});
    const adminFiles = admin?.files ?? [];
    expect(adminFiles).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^docs\/internal-developers\/services\/ops-runbook\/index\.html$/),
        expect.stringMatching(/^assets\/images\/ops-diagram-\w+\.png$/),
        expect.stringMatching(/^assets\/files\/ops-runbook-\w+\.txt$/),
      ]),
    );
    // The content chunk and the lazily loaded one.
    expect(adminFiles.filter((file) => file.startsWith('assets/js/')).length).toBeGreaterThanOrEqual(2);
    // The tag page that exists only because of the admin page.
    expect(Object.keys(manifest.files)).toContain('docs/tags/ops-only-tag/index.html');
    expect(manifest.files['docs/tags/ops-only-tag/index.html']).toEqual([admin?.rule]);
  });

  it.each([0, 1, 2])('through the gate, reader %#: nothing of a page they may not read, everything of the pages they may', async (index) => {
    const reader = readers[index] as Reader;
    const got = await everythingFor(async (url) => {
      const response = await gate.inject({url, headers: {host: 'localhost', ...(reader.cookie ? {cookie: reader.cookie} : {})}});
      return response.rawPayload;
    });
    const forbidden = Object.keys(MARKERS).filter((key) => !reader.mayReceive.includes(key as keyof typeof MARKERS));
    expect({reader: reader.name, received: forbidden.filter((key) => got.markers.has(key)), where: got.where}).toEqual({
      reader: reader.name,
      received: [],
      where: expect.any(Array),
    });
    expect(got.image).toBe(reader.mayReceiveImage);
    expect([...got.markers].sort()).toEqual([...reader.mayReceive].sort());
  });

  it('the tag page of an admin-only tag is the admin\'s alone', async () => {
    const statuses = await Promise.all(
      readers.map(async (reader) =>
        (await gate.inject({url: TAG_ROUTE, headers: {host: 'localhost', ...(reader.cookie ? {cookie: reader.cookie} : {})}})).statusCode,
      ),
    );
    expect(statuses).toEqual([404, 404, 200]);
  });

  it('through nginx (the public build): nothing restricted at all', async () => {
    const got = await everythingFor(async (url) => Buffer.from(await (await fetch(`${nginx.url}${url}`)).arrayBuffer()));
    expect({markers: [...got.markers], image: got.image}).toEqual({markers: [], image: false});
  });

  it('the leak check passes on that build, and fails when the computed list is tampered with', () => {
    expect(runLeakCheck({root: siteDir}).exitCode).toBe(0);
    const manifestFile = path.join(siteDir, 'build', 'access-manifest.json');
    const original = readFileSync(manifestFile, 'utf8');
    try {
      const tampered = JSON.parse(original) as AccessManifest;
      // Say the admin page's HTML is for any member: its words are then in a file every member may download.
      delete tampered.files['docs/internal-developers/services/ops-runbook/index.html'];
      writeFileSync(manifestFile, JSON.stringify(tampered));
      const result = runLeakCheck({root: siteDir});
      expect(result.exitCode).toBe(1);
      expect(result.lines.join('\n')).toMatch(/LEAK build\/members\/docs\/internal-developers\/services\/ops-runbook\/index\.html: .*\(every member downloads this file/);
    } finally {
      writeFileSync(manifestFile, original);
    }
  });
});

describe('access: outside docs', () => {
  it('stops the build, naming the file', () => {
    const copy = copySite('portal-src-access-');
    try {
      writeSrcPageWithAccess(copy);
      const built = build(copy);
      expect(built.status).not.toBe(0);
      expect(built.output).toContain(`${SRC_PAGE} sets it and would be published to everyone`);
    } finally {
      rmSync(copy, {recursive: true, force: true});
    }
  }, BUILD_TIMEOUT_MS);
});
