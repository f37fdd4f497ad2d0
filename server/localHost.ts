/**
 * Whether a host name is this machine's own: plain-HTTP cookies, the MCP endpoint's default hosts, and the only hosts
 * the gate takes signing keys from over plain http.
 */
export function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
}

/**
 * Whether what this URL answers may be trusted (signing keys, the authorization server the MCP metadata names):
 * https, or plain http to this machine only (the local sign-in provider), where nobody on the network can answer instead.
 */
export function isHttpsOrLocal(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLocalHost(url.hostname));
}
