/**
 * What the reader is told about their session, and whether it has ended, as
 * one reducer: each rule about which notice wins lives in one place, and the
 * rules that need the current state (a first reason stays, a dismissed
 * outage notice stays dismissed) need no refs.
 */

/** Something the user should know about their session, shown by AuthNotices. */
export type AuthNotice =
  | {kind: 'exchange-failed'}
  | {kind: 'forged-callback'}
  | {kind: 'sign-in-denied'}
  | {kind: 'session-expired'}
  | {kind: 'provider-unreachable'}
  | {kind: 'provider-timeout'}
  | {kind: 'signed-out-elsewhere'}
  | {kind: 'sign-in-unavailable'; reason: string}
  | {kind: 'sign-in-failed'};

export interface SessionNotices {
  notice: AuthNotice | null;
  /**
   * The provider refused a refresh, or the reader signed out in another tab:
   * the SDK keeps its last user in memory, so the portal stops showing it.
   */
  sessionEnded: boolean;
  /** The unreachable notice was shown for this outage: dismissing it sticks until the provider answers. */
  unreachableReported: boolean;
}

export const NO_NOTICES: SessionNotices = {notice: null, sessionEnded: false, unreachableReported: false};

export type NoticeAction =
  | {type: 'show'; notice: AuthNotice}
  | {type: 'dismiss'}
  /** The first reason stays on screen: a refresh that then fails in a tab signed out elsewhere does not replace it. */
  | {type: 'session-ended'; why: 'session-expired' | 'signed-out-elsewhere'}
  /** A refresh answered with a session (in this tab or, through the shared session, another). */
  | {type: 'session-refreshed'}
  /** The provider's first answer is late: said unless a notice already on screen says more. */
  | {type: 'provider-late'}
  | {type: 'provider-answered'}
  | {type: 'provider-unreachable'}
  | {type: 'provider-reachable'};

const without = (state: SessionNotices, kinds: AuthNotice['kind'][]): AuthNotice | null =>
  state.notice && kinds.includes(state.notice.kind) ? null : state.notice;

/** Returns `state` itself when nothing changes, so React skips the render. */
function changed(state: SessionNotices, next: SessionNotices): SessionNotices {
  return next.notice === state.notice && next.sessionEnded === state.sessionEnded && next.unreachableReported === state.unreachableReported
    ? state
    : next;
}

export function noticesReducer(state: SessionNotices, action: NoticeAction): SessionNotices {
  switch (action.type) {
    case 'show':
      return {...state, notice: action.notice};
    case 'dismiss':
      return changed(state, {...state, notice: null});
    case 'session-ended':
      return state.sessionEnded ? state : {...state, sessionEnded: true, notice: {kind: action.why}};
    case 'session-refreshed':
      return changed(state, {...state, sessionEnded: false, notice: without(state, ['session-expired', 'signed-out-elsewhere'])});
    case 'provider-late':
      return state.notice ? state : {...state, notice: {kind: 'provider-timeout'}};
    case 'provider-answered':
      return changed(state, {...state, notice: without(state, ['provider-timeout'])});
    case 'provider-unreachable':
      return state.unreachableReported ? state : {...state, unreachableReported: true, notice: {kind: 'provider-unreachable'}};
    case 'provider-reachable':
      return changed(state, {...state, unreachableReported: false, notice: without(state, ['provider-unreachable'])});
  }
}
