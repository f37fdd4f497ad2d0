/**
 * Search that finds exactly what each reader may read. Every build's search
 * bundle (`pagefind/`, plugins/search) holds what its least-privileged reader
 * may read (the public build: public pages; the members build: also
 * signed-in pages). Pages that need a role get extra indexes in the members
 * build, one per set of such rules a reader can satisfy; the gate
 * (server/decide.ts) answers a member's requests under `pagefind/` from the
 * one that matches the verified session, so nobody downloads a fragment, a
 * title or an excerpt of a page they may not read. Static hosts serve the
 * public build only, so only the public index exists there.
 */
import {createHash} from 'node:crypto';
import type {AccessRule} from '../../src/auth/access/rules';
import {SEARCH_VARIANTS_DIR} from '../../src/auth/access/searchIndex';
import type {AccessPage, SearchIndexVariant} from '../../src/auth/access/manifest';

export type {SearchIndexVariant};

/** Rules that need a role or permission, at most 2^4 - 1 variants. */
const MAX_ROLE_RULES = 4;

/** The variants for a list of pages: one per non-empty set of distinct role rules. */
export function searchIndexVariants(pages: AccessPage[]): SearchIndexVariant[] {
  const byRule = new Map<string, {rule: AccessRule; routes: string[]}>();
  for (const page of pages) {
    if (page.rule.kind !== 'roles') {
      continue;
    }
    // The same rule however its lists are ordered: one index, not two.
    const key = JSON.stringify({roles: [...page.rule.roles].sort(), permissions: [...page.rule.permissions].sort()});
    const entry = byRule.get(key) ?? {rule: page.rule, routes: []};
    entry.routes.push(page.route);
    byRule.set(key, entry);
  }
  const rules = [...byRule.values()];
  if (rules.length > MAX_ROLE_RULES) {
    throw new Error(
      `access: ${rules.length} distinct role rules would need ${2 ** rules.length - 1} search indexes; merge rules or raise MAX_ROLE_RULES`,
    );
  }
  const variants: SearchIndexVariant[] = [];
  for (let mask = 1; mask < 2 ** rules.length; mask += 1) {
    const routes = rules
      .filter((_rule, index) => mask & (1 << index))
      .flatMap((rule) => rule.routes)
      .sort();
    const key = createHash('sha256').update(routes.join('\n')).digest('hex').slice(0, 12);
    variants.push({dir: `${SEARCH_VARIANTS_DIR}/${key}`, routes});
  }
  return variants;
}
