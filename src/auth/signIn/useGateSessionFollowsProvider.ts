import {useEffect} from 'react';
import type {AuthSettings} from '../config';
import {gatePresent} from '../access/gateSession';
import {hasStoredSession} from './authkitMirror';
import type {NoticeAction} from './notices';

/**
 * The gate's cookie lives as long as the access token it was handed (at most
 * the gate's ceiling), whatever the provider decides meanwhile. When the
 * provider ends the session, the gate's cookie goes too, so the next page is
 * not the members' version for a reader the site shows as signed out:
 * - a refresh the provider refused, later (`sessionEnded`, from the SDK's
 *   onRefreshFailure) or at this page's load: a page a gate served from the
 *   members build (the dev server's members pages are no one's session),
 *   and the SDK settled with nobody and no stored session (a refusal clears
 *   it; an unreachable provider keeps it, and the session with it);
 * - sign-out in another tab (that tab asked too; asking again is harmless).
 */
export function useGateSessionFollowsProvider({
  settled,
  signedIn,
  sessionEnded,
  fromMembersBuild,
  settings,
  dispatch,
  endGateSessionThen,
}: {
  settled: boolean;
  signedIn: boolean;
  sessionEnded: boolean;
  fromMembersBuild: boolean;
  settings: Pick<AuthSettings, 'devMode' | 'clientId'>;
  dispatch: (action: NoticeAction) => void;
  endGateSessionThen: (next: () => void) => void;
}): void {
  const {devMode, clientId} = settings;
  useEffect(() => {
    if (settled && !signedIn && !sessionEnded && fromMembersBuild && gatePresent() && !hasStoredSession({devMode, clientId})) {
      dispatch({type: 'session-ended', why: 'session-expired'});
    }
  }, [settled, signedIn, sessionEnded, fromMembersBuild, devMode, clientId, dispatch]);

  useEffect(() => {
    if (sessionEnded) {
      endGateSessionThen(() => undefined);
    }
  }, [sessionEnded, endGateSessionThen]);
}
