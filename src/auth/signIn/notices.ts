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

/** The notice on screen, unless it is one of `kinds`. */
const unless = (notice: AuthNotice | null, kinds: AuthNotice['kind'][]): AuthNotice | null =>
  notice && kinds.includes(notice.kind) ? null : notice;

function changes({notice, sessionEnded, unreachableReported}: SessionNotices, action: NoticeAction): Partial<SessionNotices> {
  switch (action.type) {
    case 'show':
      return {notice: action.notice};
    case 'dismiss':
      return {notice: null};
    case 'session-ended':
      return sessionEnded ? {} : {sessionEnded: true, notice: {kind: action.why}};
    case 'session-refreshed':
      return {sessionEnded: false, notice: unless(notice, ['session-expired', 'signed-out-elsewhere'])};
    case 'provider-late':
      return notice ? {} : {notice: {kind: 'provider-timeout'}};
    case 'provider-answered':
      return {notice: unless(notice, ['provider-timeout'])};
    case 'provider-unreachable':
      return unreachableReported ? {} : {unreachableReported: true, notice: {kind: 'provider-unreachable'}};
    case 'provider-reachable':
      return {unreachableReported: false, notice: unless(notice, ['provider-unreachable'])};
  }
}

/** Returns `state` itself when nothing changes, so React skips the render. */
export function noticesReducer(state: SessionNotices, action: NoticeAction): SessionNotices {
  const next = {...state, ...changes(state, action)};
  return next.notice === state.notice && next.sessionEnded === state.sessionEnded && next.unreachableReported === state.unreachableReported
    ? state
    : next;
}
