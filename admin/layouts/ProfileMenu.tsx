import { useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { useDismiss } from '../hooks/useDismiss';
import { pathTo } from '../routing/routes';
import { currentUserAtom } from '../state/auth';
import './layouts.css';

export function ProfileMenu() {
  const user = useAtomValue(currentUserAtom);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useDismiss(open, setOpen, root);

  if (!user) return null;
  return (
    <div className="profile" ref={root}>
      <button type="button" className="profile-button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="avatar" aria-hidden="true">
          {user.username.slice(0, 1).toUpperCase()}
        </span>
        <span className="profile-name">{user.username}</span>
      </button>
      {open && (
        <ul className="profile-menu" role="menu" aria-label="Profile">
          <li role="none" className="profile-menu-roles">
            {user.roles.map((r) => r.name).join(', ')}
          </li>
          <li role="none">
            <Link role="menuitem" to={pathTo('ChangePassword')} onClick={() => setOpen(false)}>
              Change Password
            </Link>
          </li>
          <li role="none">
            <Link role="menuitem" to={pathTo('TwoFactor')} onClick={() => setOpen(false)}>
              Two-Factor Authentication{user.secretVerified ? ' (on)' : ''}
            </Link>
          </li>
          <li role="none">
            <Link role="menuitem" to={pathTo('Logout')} onClick={() => setOpen(false)}>
              Logout
            </Link>
          </li>
        </ul>
      )}
    </div>
  );
}
