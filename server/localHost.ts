/** Whether a request's host name is this machine's own (plain-HTTP cookies; the MCP endpoint's default hosts). */
export function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
}

/**
 * Whether the gate may trust what this URL answers (signing keys, the authorization server it names): https, or
 * plain http to this machine only (the local sign-in provider), where nobody on the network can answer instead.
 */
export function isHttpsOrLocal(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLocalHost(url.hostname));
}
