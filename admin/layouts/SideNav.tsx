import { useAtom, useAtomValue } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { NavLink } from 'react-router-dom';
import { pathTo } from '../routing/routes';
import { authStatusAtom, currentUserAtom } from '../state/auth';
import { Icon, Logo, PRODUCT_NAME } from './icons';
import { isGroup, visibleNav, type NavLinkItem } from './navItems';

/** Remembered across visits: people who collapse it want it to stay collapsed. */
export const navCollapsedAtom = atomWithStorage('admin.navCollapsed', false);

function Item({ item, collapsed }: { item: NavLinkItem; collapsed: boolean }) {
  return (
    <li>
      <NavLink to={pathTo(item.route)} className="nav-link" title={collapsed ? item.label : undefined}>
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
