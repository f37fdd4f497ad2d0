/**
 * Navbar item (custom type `custom-auth`): "Sign in" when signed out, a user
 * menu when signed in, and a same-size placeholder while the session loads
 * so nothing shifts. Renders on desktop and, with `mobile`, in the sidebar.
 */
import {useEffect, useId, useRef, useState, type ReactNode} from 'react';
import clsx from 'clsx';
import usePortalAuth from '../usePortalAuth';
import type {User} from '../entities';
import SignInButton from './SignInButton';
import styles from './auth.module.css';

export function displayName(user: User): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return name || user.email;
}

export function initials(user: User): string {
  const letters = [user.firstName, user.lastName]
    .filter((part): part is string => Boolean(part))
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
  return letters || (user.email[0]?.toUpperCase() ?? '?');
}

function Avatar({user}: {user: User}): ReactNode {
  const [broken, setBroken] = useState(false);
  if (user.profilePictureUrl && !broken) {
    return (
      <img
        className={clsx('avatar__photo', styles.avatar)}
        src={user.profilePictureUrl}
        alt=""
        width={28}
        height={28}
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <span className={clsx('avatar__photo', styles.avatar, styles.initials)} aria-hidden="true">
      {initials(user)}
    </span>
  );
}

function UserMenu({mobile}: {mobile: boolean}): ReactNode {
  const auth = usePortalAuth();
  const user = auth.user as User;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) {
      return undefined;
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const name = displayName(user);
  return (
    <div
      ref={root}
      className={clsx('dropdown', !mobile && 'dropdown--right', open && 'dropdown--show', styles.userMenu, mobile && styles.mobile)}
      // Focus moving to something outside (Tab past "Sign out") closes the
      // menu, as a pointer outside does; a click on the panel's text moves
      // focus nowhere and keeps it open.
      onBlur={(event) => {
        if (event.relatedTarget instanceof Node && !event.currentTarget.contains(event.relatedTarget)) {
          setOpen(false);
        }
      }}>
      <button
        ref={button}
        type="button"
        className={clsx('clean-btn', styles.userButton)}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}>
        <Avatar user={user} />
        <span className={styles.userName}>{name}</span>
        <span className={styles.visuallyHidden}>, account menu</span>
      </button>
      <div id={panelId} className={clsx('dropdown__menu', styles.panel)} hidden={!open} role="group" aria-label="Account">
        <p className={styles.panelName}>{name}</p>
        <dl className={styles.facts}>
          <dt>Email</dt>
          <dd>{user.email}</dd>
          {auth.organizationId && (
            <>
              <dt>Organisation</dt>
              <dd>
                <code>{auth.organizationId}</code>
              </dd>
            </>
          )}
          {auth.role && (
            <>
              <dt>Role</dt>
              <dd>{auth.role}</dd>
            </>
          )}
          {auth.roles.length > 1 && (
            <>
              <dt>Roles</dt>
              <dd>{auth.roles.join(', ')}</dd>
            </>
          )}
          {auth.permissions.length > 0 && (
            <>
              <dt>Permissions</dt>
              <dd>{auth.permissions.join(', ')}</dd>
            </>
          )}
          {auth.featureFlags.length > 0 && (
            <>
              <dt>Feature flags</dt>
              <dd>{auth.featureFlags.join(', ')}</dd>
            </>
          )}
        </dl>
        <button type="button" className="button button--secondary button--sm button--block" onClick={() => auth.signOut()}>
          Sign out
        </button>
      </div>
    </div>
  );
}

export default function AuthNavbarItem({mobile = false, className}: {mobile?: boolean; className?: string}): ReactNode {
  const auth = usePortalAuth();
  if (!auth.available) {
    return null;
  }
  const Wrapper = mobile ? 'li' : 'div';
  const content = !auth.isLoading && auth.user ? <UserMenu mobile={mobile} /> : <SignInButton />;
  return (
    <Wrapper className={clsx(mobile ? ['menu__list-item', styles.mobileItem] : 'navbar__item', styles.item, className)}>{content}</Wrapper>
  );
}
