import { atom, useAtom, useAtomValue } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { useContext, useEffect } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { StartScreenContext } from '../routing/ahead';
import { pathTo } from '../routing/routes';
import { authStatusAtom, currentUserAtom } from '../state/auth';
import { Icon, Logo, PRODUCT_NAME } from './icons';
import { isGroup, visibleNav, type NavLinkItem } from './navItems';
import './layouts.css';

/** Remembered across visits: people who collapse it want it to stay collapsed. */
export const navCollapsedAtom = atomWithStorage('admin.navCollapsed', false);

/** On a phone the navigation is a drawer the top bar's Menu button opens; it closes on leaving. */
export const navOpenAtom = atom(false);
export const SIDE_NAV_ID = 'side-nav';

function Item({ item, collapsed }: { item: NavLinkItem; collapsed: boolean }) {
  const startScreen = useContext(StartScreenContext);
  const to = pathTo(item.route);
  // Pointed at or focused, the link's screen starts its code and its first requests.
  const here = useLocation().pathname === to;
  const ahead = () => !here && startScreen({ pathname: to, search: '' });
  return (
    <li>
      <NavLink to={to} className="nav-link" title={collapsed ? item.label : undefined} onPointerEnter={ahead} onFocus={ahead}>
        <Icon name={item.icon} />
        <span className="nav-label">{item.label}</span>
      </NavLink>
    </li>
  );
}

export function SideNav() {
  const [collapsed, setCollapsed] = useAtom(navCollapsedAtom);
  const status = useAtomValue(authStatusAtom);
  const user = useAtomValue(currentUserAtom);
  const items = visibleNav(status, user);
  const [open, setOpen] = useAtom(navOpenAtom);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname, setOpen]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, setOpen]);

  return (
    <>
      {open && <div className="nav-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />}
      <nav className={open ? 'side-nav is-open' : 'side-nav'} id={SIDE_NAV_ID} aria-label="Main">
        <div className="side-nav-brand">
          <Logo />
          <span className="nav-label">{PRODUCT_NAME}</span>
        </div>
        <ul className="nav-list">
          {items.map((item) =>
            isGroup(item) ? (
              <li key={item.label} className="nav-group">
                <span className="nav-heading" title={collapsed ? item.label : undefined}>
                  <span className="nav-label">{item.label}</span>
                </span>
                <ul className="nav-list">
                  {item.children.map((child) => (
                    <Item key={child.route} item={child} collapsed={collapsed} />
                  ))}
                </ul>
              </li>
            ) : (
              <Item key={item.route} item={item} collapsed={collapsed} />
            ),
          )}
        </ul>
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
          onClick={() => setCollapsed(!collapsed)}
        >
          <Icon name={collapsed ? 'chevronRight' : 'chevronLeft'} />
        </button>
      </nav>
    </>
  );
}
