import { useEffect } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { useCurrentRoute } from '../routing/currentRoute';
import { HOME_CRUMB, breadcrumbTrail } from './breadcrumbs';
import { topBarAtom, type Crumb, type TopBarButton, type TopBarButtonVariant } from '../state/topBar';
import { Icon, PRODUCT_NAME } from './icons';
import { SIDE_NAV_ID, navOpenAtom } from './SideNav';
import { ProfileMenu } from './ProfileMenu';
import { SearchBox } from './SearchBox';
import './layouts.css';

function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={`${index}-${crumb.label}`}>
            {crumb.to && index < crumbs.length - 1 ? (
              <Link to={crumb.to}>{crumb.label}</Link>
            ) : (
              <span aria-current={index === crumbs.length - 1 ? 'page' : undefined}>{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

const DEFAULT_VARIANT: Record<string, TopBarButtonVariant> = { Add: 'primary', Save: 'primary', Done: 'primary', Delete: 'danger' };

function ContextButton({ button }: { button: TopBarButton }) {
  const className = `btn btn-${button.variant ?? DEFAULT_VARIANT[button.label] ?? 'secondary'}`;
  if (button.to && !button.disabled) {
    return (
      <Link className={className} to={button.to}>
        {button.label}
      </Link>
    );
  }
  return (
    <button
      type={button.submits ? 'submit' : 'button'}
      form={button.submits}
      className={className}
      onClick={button.onClick}
      disabled={button.disabled || button.busy}
      aria-busy={button.busy || undefined}
    >
      {button.busy && <span className="spinner spinner-small" aria-hidden="true" />}
      {button.label}
    </button>
  );
}

export function TopBar() {
  const config = useAtomValue(topBarAtom);
  const { route, params } = useCurrentRoute();
  const title = config.actionTitle ?? route?.title ?? '';
  const crumbs = config.breadcrumbs ? [HOME_CRUMB, ...config.breadcrumbs] : route ? breadcrumbTrail(route, params, config.objectTitle) : [HOME_CRUMB];

  useEffect(() => {
    document.title = [config.objectTitle, title, PRODUCT_NAME].filter(Boolean).join(' · ');
  }, [config.objectTitle, title]);

  const [navOpen, setNavOpen] = useAtom(navOpenAtom);

  return (
    <header className="top-bar">
      {/* Shown on a phone only (layouts.css), where the navigation is a drawer. */}
      <button
        type="button"
        className="btn btn-secondary nav-menu-button"
        aria-expanded={navOpen}
        aria-controls={SIDE_NAV_ID}
        onClick={() => setNavOpen(!navOpen)}
      >
        <Icon name="menu" />
        <span>Menu</span>
      </button>
      <div className="top-bar-titles">
        <Breadcrumbs crumbs={crumbs} />
        <div className="top-bar-heading">
          <h1>{title}</h1>
          {config.objectTitle && <p className="object-title">{config.objectTitle}</p>}
        </div>
      </div>
      <div className="top-bar-tools">
        {config.search && <SearchBox value={config.search.value} onSearch={config.search.onSearch} placeholder={config.search.placeholder} />}
        {config.buttons && config.buttons.length > 0 && (
          <div className="top-bar-buttons">
            {config.buttons.map((button) => (
              <ContextButton key={button.label} button={button} />
            ))}
          </div>
        )}
        <ProfileMenu />
      </div>
    </header>
  );
}
