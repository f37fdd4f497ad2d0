/**
 * The whole body of a page withheld from the public build (see
 * plugins/access/plugin.ts): the doc layout still renders its title, and this
 * says what the reader needs. It never holds the page's content: that exists
 * only in the members build, which the gate serves to readers allowed to see it.
 */
import type {ReactNode} from 'react';
import Head from '@docusaurus/Head';
import {useDoc} from '@docusaurus/plugin-content-docs/client';
import usePortalAuth from '../usePortalAuth';
import {gatePresent} from './gateSession';
import {missingAccess, principalFromClaims, RULE_FRONT_MATTER_KEY, SIGNED_IN_RULE, type AccessRule} from './rules';
import SignInButton from '../components/SignInButton';
import styles from './access.module.css';

/** The page's rule, as the access plugin wrote it into its front matter (its one channel to the page). */
function ruleOf(frontMatter: Record<string, unknown>): AccessRule {
  const rule = frontMatter[RULE_FRONT_MATTER_KEY] as AccessRule | undefined;
  // Only a withheld page renders this component; without a rule, fail safe.
  return rule && typeof rule === 'object' && 'kind' in rule ? rule : SIGNED_IN_RULE;
}

function useRestrictedMessage(): {title: string; body: string; action: 'sign-in' | null} {
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
    return {title: 'Sign in to read this page', body: 'This page is for signed-in members of the organisation.', action: 'sign-in'};
  }
  const missing = missingAccess(rule.kind === 'public' ? SIGNED_IN_RULE : rule, principalFromClaims(auth));
  if (missing) {
    return {
      title: missing.replace(/ to read this page\.$/, ''),
      body: 'Ask your team lead or #team-identity if you need it.',
      action: null,
    };
  }
  if (gatePresent()) {
    return {title: 'Opening the page for members…', body: 'You are signed in; the members’ version of this page is loading.', action: null};
  }
  return {
    title: 'Not published on this site',
    body: 'This copy of the portal is public only; pages for members are served by the portal’s gate server.',
    action: null,
  };
}

export default function RestrictedPage(): ReactNode {
  const message = useRestrictedMessage();
  const {isLoading} = usePortalAuth();
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
      </section>
    </>
  );
}
