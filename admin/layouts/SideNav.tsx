import { useAtom, useAtomValue } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { useContext } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { StartScreenContext } from '../routing/ahead';
import { pathTo } from '../routing/routes';
import { authStatusAtom, currentUserAtom } from '../state/auth';
import { Icon, Logo, PRODUCT_NAME } from './icons';
import { isGroup, visibleNav, type NavLinkItem } from './navItems';

/** Remembered across visits: people who collapse it want it to stay collapsed. */
export const navCollapsedAtom = atomWithStorage('admin.navCollapsed', false);

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

  return (
    <nav className="side-nav" aria-label="Main">
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
  );
}
