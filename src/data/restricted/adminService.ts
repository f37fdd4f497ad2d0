/**
 * Facts only the Admin Service page shows (it needs the admin role).
 *
 * Everything in src/data/platform.ts reaches every reader: the fact
 * components import it, so it is bundled into the scripts every page loads,
 * signed in or not. A fact that only a restricted page shows lives in a module
 * under src/data/restricted/ that only that page imports: it is then compiled
 * into the page's own content chunk, which the gate serves only to readers the
 * page's rule lets in, and the public build never contains it (the page's
 * Markdown, imports included, is withheld there). The leak check
 * (scripts/leak-check.ts) searches both builds for every text these modules
 * export, as it does for the page's prose.
 */
import type {EnvVar} from '../platform';

/** The admin service's own variables; the `*_SERVICE_URL` ones come from platform.ts with its dependencies. */
export const ADMIN_SERVICE_ENV: EnvVar[] = [
  {name: 'ADMIN_AUDIT_RETENTION_DAYS', description: 'How long audit log entries are kept.', localDefault: '365', required: false},
];
