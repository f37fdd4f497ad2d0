/**
 * The whole body of a page withheld from the public build (see
 * plugins/access/plugin.ts): the doc layout still renders its title, and this
 * says what the reader needs. It never holds the page's content: that exists
 * only in the members build, which the gate serves to readers allowed to see it.
 */
import {useEffect, useSyncExternalStore, type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import {useDoc} from '@docusaurus/plugin-content-docs/client';
import usePortalAuth from '../usePortalAuth';
import {gatePresent, gateSessionStore, reloadedForMembersRecently, reloadForMembersOnce, type GateSessionState} from './gateSession';
import {missingAccess, principalFromClaims, RULE_FRONT_MATTER_KEY, SIGNED_IN_RULE, signedInWithheldMessage, type AccessRule} from './rules';
import SignInButton from '../components/SignInButton';
import styles from './access.module.css';

/** The page's rule, as the access plugin wrote it into its front matter (its one channel to the page). */
function ruleOf(frontMatter: Record<string, unknown>): AccessRule {
  const rule = frontMatter[RULE_FRONT_MATTER_KEY] as AccessRule | undefined;
  // Only a withheld page renders this component; without a rule, fail safe.
  return rule && typeof rule === 'object' && 'kind' in rule ? rule : SIGNED_IN_RULE;
}

type Message = {title: string; body: string; action: 'sign-in' | 'sign-out' | 'reload' | null; opensMembersVersion?: boolean};

/**
 * Loads the page again once the gate holds a session: this page is the public
 * build's (the reader got here by a client-side navigation in a public page,
 * such as the gate's answer for a page that needs a role they lack), and the
 * gate serves the members' version of the same address. At most once per
 * address in 30 s; true when that reload already happened and did not help.
 */
function useOpenMembersVersion(wanted: boolean, gateSession: GateSessionState): boolean {
  const ready = wanted && gateSession === 'active';
  const alreadyTried = ready && reloadedForMembersRecently();
  useEffect(() => {
    if (ready && !alreadyTried) {
      reloadForMembersOnce();
    }
  }, [ready, alreadyTried]);
  return alreadyTried;
}

/** What the reader is told when the gate did not take their sign-in (useGateSessionSync asks it again while it is unavailable). */
const GATE_ANSWERS: Partial<Record<GateSessionState, Message>> = {
  refused: {
    title: 'The portal’s server did not accept your sign-in',
    body: 'Pages for members stay hidden for this sign-in. Sign out and sign in again; if this stays, your account may belong to another organisation than this portal’s: ask the portal’s operators.',
    action: 'sign-out',
  },
  blocked: {
    title: 'The portal’s server refused this page’s sign-in request',
    body: 'It did not accept where the request came from, which points at how the portal is set up (an address or proxy), not at your account. The documentation stays readable; tell the portal’s operators.',
    action: null,
  },
  unavailable: {
    title: 'The portal’s server could not check your sign-in',
    body: 'It may be starting or briefly unreachable. This page asks it again for about a minute and a half and opens the members’ version when it answers; after that, reload the page.',
    action: 'reload',
  },
};

function useRestrictedMessage(gateSession: GateSessionState): Message {
  const {frontMatter} = useDoc();
  const auth = usePortalAuth();
  const rule = ruleOf(frontMatter as Record<string, unknown>);
  if (auth.isLoading) {
    return {title: 'Sign in to read this page', body: 'This page is for signed-in members of the organisation.', action: null};
  }
  if (!auth.user) {
    if (!auth.available) {
      return {
        title: 'Sign in to read this page',
        body: 'Sign-in is not available on this site, so this page cannot be shown here.',
        action: null,
      };
    }
    // A page that needs a role says so before sign-in, not only after it.
    const needs = rule.kind === 'roles' ? missingAccess(rule, {roles: [], permissions: []}) : null;
    return {
      title: 'Sign in to read this page',
      body: needs
        ? `This page is for signed-in members of the organisation. ${needs}`
        : 'This page is for signed-in members of the organisation.',
      action: 'sign-in',
    };
  }
  const missing = signedInWithheldMessage(rule, principalFromClaims(auth));
  if (missing) {
    return {...missing, action: null};
  }
  if (typeof navigator !== 'undefined' && !navigator.cookieEnabled) {
    // The gate's session is a cookie: without one, no gate can serve the members' version (and its
    // marker cookie, which says whether a gate serves this site, cannot be read either).
    return {
      title: 'Your browser blocks cookies for this site',
      body: 'Where the portal’s server serves pages for members, they need a cookie. Allow cookies for this site, then reload the page.',
      action: 'reload',
    };
  }
  if (gatePresent()) {
    const answer = GATE_ANSWERS[gateSession];
    if (answer) {
      return answer;
    }
    return {
      title: 'Opening the page for members…',
      body: 'You are signed in; the members’ version of this page is loading.',
      action: null,
      opensMembersVersion: true,
    };
  }
  return {
    title: 'Not published on this site',
    body: 'This copy of the portal is public only; pages for members are served by the portal’s gate server.',
    action: null,
  };
}

const DID_NOT_OPEN: Message = {
  title: 'The members’ version did not open',
  body: 'Reload the page. If this stays, sign out and sign in again.',
  action: 'reload',
};

export default function RestrictedPage(): ReactNode {
  const gateSession = useSyncExternalStore(gateSessionStore.subscribe, gateSessionStore.getSnapshot, gateSessionStore.getServerSnapshot);
  const opening = useRestrictedMessage(gateSession);
  const didNotOpen = useOpenMembersVersion(opening.opensMembersVersion === true, gateSession);
  const message = didNotOpen ? DID_NOT_OPEN : opening;
  const {isLoading, signOut} = usePortalAuth();
  return (
    <>
      <Head>
        <meta name="robots" content="noindex, nofollow" />
      </Head>
      <section className={styles.restricted} aria-labelledby="restricted-page-title" data-restricted-page="">
        <p id="restricted-page-title" className={styles.title} role="status">
          {message.title}
        </p>
        <p>{message.body}</p>
        {/* Present (disabled) while loading so the layout does not move. */}
        {(message.action === 'sign-in' || isLoading) && <SignInButton appearance="solid" size="md" />}
        {message.action === 'sign-out' && (
          <button type="button" className="button button--primary" onClick={() => signOut()}>
            Sign out
          </button>
        )}
        {message.action === 'reload' && (
          <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
            Reload
          </button>
        )}
      </section>
    </>
  );
}
