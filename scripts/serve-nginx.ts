/**
 * Serves build/public/ (the static, public-only deployment) with Debian's nginx on loopback, using deploy/nginx.conf with
 * local paths, so the production server config is what the browser tests
 * exercise. `npm run serve:nginx` (PORT, default 8080).
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {waitForHttp} from './support/ports';

const ROOT = path.resolve(__dirname, '..');
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** Debian's brotli_static module (libnginx-mod-http-brotli-static), loaded only when installed. */
export function brotliStaticModule(): string | null {
  const module = process.env.NGINX_BROTLI_STATIC_MODULE ?? '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
  return existsSync(module) ? module : null;
}

/**
 * deploy/nginx.conf with the build folder, headers file and port of this
 * machine; with brotli_static when the module is installed (the file
 * `${prefix}/brotli-static.conf` that enables it is written by prepare()).
 */
export function localNginxConfig(buildDir: string, port: number, prefix: string, workers: number | 'auto' = 1): string {
  const server = readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
    .replace(/listen 8080;/, `listen 127.0.0.1:${port};`)
    .replace(/root \/usr\/share\/nginx\/html;/, `root ${buildDir};`)
    .replaceAll('/etc/nginx/portal/security-headers.conf', path.join(buildDir, '_nginx', 'security-headers.conf'))
    .replaceAll('/etc/nginx/portal/brotli-static', `${prefix}/brotli-static`);
  const brotli = brotliStaticModule();
  return `${brotli ? `load_module ${brotli};\n` : ''}worker_processes ${workers};
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path ${prefix}/body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
${server}
}
`;
}

export interface NginxServer {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

function prepare(
  port: number,
  workers: number | 'auto' = 1,
  publicDir = path.join(ROOT, 'build', 'public'),
  configure: (config: string) => string = (config) => config,
): {prefix: string; config: string} {
  if (!existsSync(NGINX)) {
    throw new Error(`nginx not found at ${NGINX}. Install it with "apt-get install nginx" or set NGINX_PATH.`);
  }
  // nginx is the static deployment: it serves the public audience only.
  const buildDir = publicDir;
  if (!existsSync(path.join(buildDir, '_nginx', 'security-headers.conf'))) {
    throw new Error('build/public/ has no security headers: run "npm run build" first');
  }
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-'));
  mkdirSync(path.join(prefix, 'logs'));
  const config = path.join(prefix, 'nginx.conf');
  writeFileSync(config, configure(localNginxConfig(buildDir, port, prefix, workers)));
  if (brotliStaticModule()) {
    writeFileSync(path.join(prefix, 'brotli-static.conf'), 'brotli_static on;\n');
  }
  return {prefix, config};
}

/** `nginx -t` on the shipped config with local paths; returns nginx's output. */
export function testNginxConfig(): {ok: boolean; output: string} {
  const {prefix, config} = prepare(18080);
  const result = spawnSync(NGINX, ['-t', '-p', prefix, '-c', config], {encoding: 'utf8'});
  return {ok: result.status === 0, output: `${result.stdout}${result.stderr}`};
}

export async function startNginx(
  port: number,
  {
    workers = 1,
    publicDir,
    configure,
  }: {
    workers?: number | 'auto';
    /** Default build/public of this repository. */
    publicDir?: string;
    /** Changes the local config before nginx starts (benchmarks of other designs; never the shipped file). */
    configure?: (config: string) => string;
  } = {},
): Promise<NginxServer> {
  const {prefix, config} = prepare(port, workers, publicDir, configure);
  const child = spawn(NGINX, ['-p', prefix, '-c', config, '-g', 'daemon off;'], {stdio: ['ignore', 'ignore', 'inherit']});
  const url = `http://localhost:${port}`;
  try {
    await waitForHttp(`${url}/`, {exited: () => (child.exitCode === null ? null : `nginx exited with code ${child.exitCode}`)});
  } catch (error) {
    child.kill();
    throw error;
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGQUIT');
      }),
  };
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? 8080);
  startNginx(port)
    .then((server) => {
      console.log(`nginx serving build/ at ${server.url} (deploy/nginx.conf). Ctrl-C to stop.`);
      const stop = () => void server.stop().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    })
    .catch((error: unknown) => {
      console.error(String(error));
      process.exit(1);
    });
}
