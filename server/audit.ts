/**
 * What the audit log says about an answer that needed an access rule: a
 * restricted page's HTML or one of its files (served, or refused), or the
 * search index (a role index served, or withheld). Written into the
 * request's log line only (./plugins/requestLog.ts).
 */
import {markdownFileOfWithheld} from '../src/auth/access/agentDocs';
import type {AccessManifest} from '../src/auth/access/manifest';
import type {AccessRule} from '../src/auth/access/rules';
import {SEARCH_BUNDLE_DIR, SEARCH_VARIANTS_DIR} from '../src/auth/access/searchIndex';
import type {Decision, Site} from './decide';
import {canonicalisePath} from './requestPath';
import type {GateSession} from './session';

export interface AuditEntry {
  /** The reader whose session was read; null when none was (signed out, or another site's request). */
  reader: {sub: string; sid: string} | null;
  rule: string;
  access: 'allowed' | 'refused';
  /** The restricted page the file belongs to, when the manifest names it. */
  page?: string;
  /** Another site made the browser send the request (Sec-Fetch-Site), so the session was not read. */
  otherSite?: true;
}

/** A rule as the audit log names it: `signed-in`, `roles:admin`, `roles:admin permissions:users:manage`. */
export function describeRule(rule: AccessRule): string {
  if (rule.kind !== 'roles') {
    return rule.kind;
  }
  return [
    rule.roles.length > 0 ? `roles:${rule.roles.join(',')}` : '',
    rule.permissions.length > 0 ? `permissions:${rule.permissions.join(',')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

const describeRules = (rules: AccessRule[]) => rules.map(describeRule).join(' | ');

export type Auditor = (site: Site, decision: Decision, rawTarget: string, session: GateSession | null) => AuditEntry | null;

/** The audit fields of an answer, or null for answers that needed no rule. */
export function createAuditor(manifest: AccessManifest): Auditor {
  const {baseUrl} = manifest;
  // The restricted page each rule-bearing file belongs to.
  const pageOfFile = new Map<string, string>();
  for (const page of manifest.pages) {
    if (page.rule.kind === 'public') {
      continue;
    }
    // The files it brings (its HTML among them), as the access manifest computed them; a file several pages use names the first.
    for (const file of page.files) {
      if (!pageOfFile.has(file)) {
        pageOfFile.set(file, page.route);
      }
    }
  }
  // The rules the role search indexes apply.
  const roleRules = new Map(manifest.pages.filter((page) => page.rule.kind === 'roles').map((page) => [page.route, page.rule]));
  const rulesOf = (routes: string[]) =>
    [...new Set(routes.flatMap((route) => (roleRules.has(route) ? [describeRule(roleRules.get(route) as AccessRule)] : [])))]
      .sort()
      .join(' | ');
  const searchVariantRules = new Map((manifest.searchIndexes ?? []).map((variant) => [variant.dir, rulesOf(variant.routes)]));
  const allRoleRules = rulesOf([...roleRules.keys()]);
  const pageOf = (name: string) => (pageOfFile.has(name) ? {page: pageOfFile.get(name)} : {});

  return (site, decision, rawTarget, session) => {
    const reader = session ? {sub: session.subject, sid: session.providerSessionId} : null;
    if (decision.kind === 'file' && decision.personal) {
      const {name} = decision.file;
      // A role search bundle served: every file of it. The reader's own bundle
      // instead: one line, for the file that chooses the index (its entry).
      const variantDir = /^(_portal\/search\/[^/]+)\//.exec(name)?.[1];
      if (name.startsWith(`${SEARCH_VARIANTS_DIR}/`) && variantDir !== undefined) {
        const variant = decision.audience === 'members' ? searchVariantRules.get(variantDir) : undefined;
        return variant === undefined ? null : {reader, rule: variant, access: 'allowed'};
      }
      if (name === `${SEARCH_BUNDLE_DIR}/pagefind-entry.json`) {
        return allRoleRules === '' ? null : {reader, rule: allRoleRules, access: 'refused'};
      }
      // A member without a role page's role gets its "you need the role"
      // Markdown (plugins/agent-docs): refused, as the page would be.
      const withheldFrom = markdownFileOfWithheld(name);
      const ruleName = withheldFrom ?? name;
      const rules = site.rules.get(ruleName);
      if (rules) {
        // A restricted page withheld is answered from the public build, under the same name.
        const access = decision.audience === 'members' && withheldFrom === null ? 'allowed' : 'refused';
        return {reader, rule: describeRules(rules), access, ...pageOf(ruleName)};
      }
      if (decision.status !== 404) {
        return null;
      }
    }
    // decide() names no file when it refuses one (403), or when a restricted
    // file has no public version (a tag page only restricted pages have: 404):
    // resolve it the same way, for the log only.
    const refusedByName = decision.kind === 'forbidden' || (decision.kind === 'file' && decision.status === 404 && decision.personal);
    if (!refusedByName) {
      return null;
    }
    const canonical = canonicalisePath(rawTarget);
    const file =
      canonical.kind === 'path'
        ? site.builds.members.resolve(canonical.path.slice(baseUrl.length).replace(/\/$/, ''), canonical.trailingSlash)
        : undefined;
    const rules = file ? site.rules.get(file.name) : undefined;
    if (!rules && decision.kind !== 'forbidden') {
      return null;
    }
    return {reader, rule: rules ? describeRules(rules) : 'unknown', access: 'refused', ...(file ? pageOf(file.name) : {})};
  };
}
