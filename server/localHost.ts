/** Whether a request's host name is this machine's own (plain-HTTP cookies; the MCP endpoint's default hosts). */
export function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
}
