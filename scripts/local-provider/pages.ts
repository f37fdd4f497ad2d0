/** HTML pages of the local sign-in provider: plain, accessible, clearly labelled as local. */
import type {LocalUser} from './users';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Local sign-in provider</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f5f6f7; color: #1c1e21; }
  main { max-width: 36rem; margin: 2rem auto; padding: 1.5rem 2rem; background: #fff; border: 1px solid #dadde1; border-radius: 8px; }
  .badge { display: inline-block; background: #fff3cd; color: #5c4400; border: 1px solid #c9a227; border-radius: 4px; padding: 0.1rem 0.5rem; font-size: 0.85rem; font-weight: 600; }
  ul { list-style: none; padding: 0; }
  li { margin: 0.5rem 0; }
  button { width: 100%; text-align: left; font: inherit; padding: 0.75rem 1rem; border: 1px solid #8d949e; border-radius: 6px; background: #fff; cursor: pointer; }
  button:hover, button:focus-visible { border-color: #1a5fa8; outline: 3px solid #1a5fa8; outline-offset: 1px; }
  .name { font-weight: 600; display: block; }
  .detail { color: #444950; font-size: 0.9rem; }
  .error { color: #a4001b; }
</style>
</head>
<body><main>
<p class="badge">LOCAL DEVELOPMENT PROVIDER: not WorkOS, no real accounts</p>
${body}
</main></body>
</html>`;
}

export function authorizePage({
  authorizationId,
  users,
  signUp,
  organizationId,
}: {
  authorizationId: string;
  users: LocalUser[];
  signUp: boolean;
  organizationId: string | null;
}): string {
  const items = users
    .map(
      (user) => `<li><button type="submit" name="user_id" value="${escapeHtml(user.id)}">
  <span class="name">${escapeHtml(`${user.firstName} ${user.lastName}`)} &lt;${escapeHtml(user.email)}&gt;</span>
  <span class="detail">${escapeHtml(user.label)}</span>
</button></li>`,
    )
    .join('\n');
  return layout(
    signUp ? 'Create an account' : 'Sign in',
    `<h1>${signUp ? 'Create an account' : 'Sign in'} to Developer Portal</h1>
<p>Choose a test user. ${organizationId ? `Organisation: <code>${escapeHtml(organizationId)}</code>.` : ''}</p>
<form method="post" action="/user_management/authorize/complete">
<input type="hidden" name="authorization_id" value="${escapeHtml(authorizationId)}">
<ul>
${items}
</ul>
</form>`,
  );
}

export function errorPage(title: string, problems: string[]): string {
  return layout(
    title,
    `<h1 class="error">${escapeHtml(title)}</h1>
<ul>${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('')}</ul>
<p>No redirect was made. Return to the portal and try again.</p>`,
  );
}

export function signedOutPage(): string {
  return layout('Signed out', '<h1>You are signed out</h1><p>You can close this tab or return to the portal.</p>');
}
