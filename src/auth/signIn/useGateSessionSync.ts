/**
 * Keeps the gate server's session in step with the provider's (see
 * ../access/gateSession.ts): after sign-in and every refresh the gate gets
 * the new token, which it verifies itself, so its cookie lives as long as
 * the token; on sign-out its cookie goes first. When the gate now answers
 * this page differently, the page is loaded again.
 */
import {useCallback, useEffect, useRef} from 'react';
import type {Audience} from '../access/audience';
import {clearMembersReloadMark, endGateSession, recordGateSync, reloadForMembersOnce, syncGateSession} from '../access/gateSession';

/**
 * When the gate could not check a token (it is starting and has no provider
 * keys yet, or it was unreachable), it is asked again after these waits (ms),
 * about 90 s in all, well inside a token's life; a newer token replaces them.
 */
export const GATE_RETRY_DELAYS_MS = [2_000, 4_000, 8_000, 16_000, 30_000, 30_000];

/** Which audience build this page came from, and where the gate's endpoints live. */
export interface GateContext {
  audience: Audience;
  baseUrl: string;
}

export interface GateSessionSync {
  /** Hands a fresh access token to the gate (nothing where no gate serves the site). */
  syncToken: (accessToken: string) => void;
  /** Asks the gate to drop its cookie, then runs `next` (at once where the site has no gate base URL). */
  endSessionThen: (next: () => void) => void;
}

export function useGateSessionSync(gate: GateContext | undefined): GateSessionSync {
  const audience = gate?.audience;
  const baseUrl = gate?.baseUrl;
  // The latest token's sync: answers to an older one, and its retries, are dropped.
  // `ended`: the session ended after the latest token was handed over (sign-out, the provider ended it).
  const latest = useRef<{generation: number; retry: ReturnType<typeof setTimeout> | undefined; ended: boolean}>({
    generation: 0,
    retry: undefined,
    ended: false,
  });

  // This page came from the members build: a reload for it worked, so a later one may happen again.
  useEffect(() => {
    if (audience === 'members') {
      clearMembersReloadMark();
    }
  }, [audience]);

  useEffect(() => {
    const current = latest.current;
    return () => {
      current.generation += 1;
      clearTimeout(current.retry);
    };
  }, []);

  const syncToken = useCallback(
    (accessToken: string) => {
      if (!baseUrl) {
        return;
      }
      const current = latest.current;
      clearTimeout(current.retry);
      current.generation += 1;
      current.ended = false;
      const generation = current.generation;
      const attempt = (retriesDone: number) => {
        void syncGateSession(accessToken, baseUrl).then((result) => {
          if (generation !== current.generation) {
            // The session ended while this request was on its way: a cookie its answer set goes too.
            if (current.ended && (result === 'started' || result === 'renewed' || result === 'changed')) {
              void endGateSession(baseUrl);
            }
            return;
          }
          recordGateSync(result);
          // Load the page again when the gate now answers differently: into the
          // members build after sign-in, or with what a changed role may read
          // (the search worker keeps the index it loaded for the page's life).
          if ((result === 'started' && audience === 'public') || result === 'changed') {
            if (!reloadForMembersOnce()) {
              console.warn('Developer Portal: the gate still answers this page as public after loading it again; is its cookie blocked?');
            }
          } else if (result === 'failed' && retriesDone < GATE_RETRY_DELAYS_MS.length) {
            current.retry = setTimeout(() => attempt(retriesDone + 1), GATE_RETRY_DELAYS_MS[retriesDone]);
          } else if (result === 'refused' || result === 'blocked' || result === 'failed') {
            console.warn(`Developer Portal: the gate server did not accept the session (${result}); pages for members stay hidden.`);
          }
        });
      };
      attempt(0);
    },
    [audience, baseUrl],
  );

  // Asked for on every site with a base URL, never only when the (forgeable)
  // marker cookie is there; a static host's 404 is harmless.
  const endSessionThen = useCallback(
    (next: () => void) => {
      // A pending retry must not hand the gate the ended session's token again.
      latest.current.generation += 1;
      latest.current.ended = true;
      clearTimeout(latest.current.retry);
      if (baseUrl) {
        void endGateSession(baseUrl).then(next);
      } else {
        next();
      }
    },
    [baseUrl],
  );

  return {syncToken, endSessionThen};
}
