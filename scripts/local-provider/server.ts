/**
 * The local sign-in provider as a real HTTP server: the MSW handlers of
 * `handlers.ts` behind Express, through @mswjs/http-middleware.
 */
import type {AddressInfo} from 'node:net';
import type {Server} from 'node:http';
import express from 'express';
import {createMiddleware} from '@mswjs/http-middleware';
import {createProviderHandlers, type ProviderOptions} from './handlers';

/**
 * The origins the local provider accepts for redirect_uri, return_to and
 * CORS: the site on `sitePort` (localhost and 127.0.0.1), SITE_URL,
 * WORKOS_REDIRECT_URI and LOCAL_AUTH_ALLOWED_ORIGINS (comma-separated).
 */
export function localAllowedOrigins(env: NodeJS.ProcessEnv, sitePort: number): string[] {
  const origins = new Set([`http://localhost:${sitePort}`, `http://127.0.0.1:${sitePort}`]);
  for (const value of [env.SITE_URL, env.WORKOS_REDIRECT_URI, ...(env.LOCAL_AUTH_ALLOWED_ORIGINS ?? '').split(',')]) {
    if (value?.trim()) {
      origins.add(new URL(value.trim()).origin);
    }
  }
  return [...origins];
}

export interface LocalProvider {
  url: string;
  port: number;
  close: () => Promise<void>;
}

export async function startLocalProvider(options: Omit<ProviderOptions, 'issuer'> & {port: number; host?: string}): Promise<LocalProvider> {
  const host = options.host ?? '127.0.0.1';
  const app = express();
  app.disable('x-powered-by');
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(options.port, host, () => resolve(listening));
    listening.on('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  const {handlers} = createProviderHandlers({...options, issuer: `${url}/user_management/${options.clientId}`});
  app.use(createMiddleware(...handlers));
  app.use((_request, response) => {
    response.status(404).type('text/plain').send('Not found (local sign-in provider)');
  });
  return {
    url,
    port,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
