/**
 * HTTP requests with the target sent exactly as written. fetch() and
 * Fastify's inject parse the URL first (WHATWG rules turn `/../x`, `%2e` and
 * `\` into something else), so they cannot send the spellings an attacker
 * would; node:http's client sends the path as given.
 */
import http from 'node:http';
import {isSameOriginPath} from './urlSpellings';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function rawGet(origin: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(origin, 'GET', target, headers);
}

export function rawRequest(origin: string, method: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const {hostname, port} = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request({host: hostname, port, path: target, method, headers, agent: false}, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8')}),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** GET, following redirects (each must be a path on the same origin, or this throws), up to 5 hops. */
export async function rawGetFollowing(origin: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  let current = target;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await rawGet(origin, current, headers);
    if (response.status < 300 || response.status > 399) {
      return response;
    }
    const location = response.headers.location;
    if (!isSameOriginPath(location)) {
      throw new Error(`${target} redirected off the site: ${JSON.stringify(location)}`);
    }
    current = location as string;
  }
  throw new Error(`${target}: too many redirects`);
}
