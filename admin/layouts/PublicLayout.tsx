import { useEffect, type ReactNode } from 'react';
import { useCurrentRoute } from '../routing/currentRoute';
import { ScreenOutlet } from './ScreenOutlet';
import { Footer } from './Footer';
import { Logo, PRODUCT_NAME } from './icons';
import './layouts.css';

/** For visitors who are not signed in: the logo, the page, the footer, on black. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  // The top bar titles the page in the app layout; here the route does, so a visitor sent on
  // from another route (Dashboard at /) does not keep that route's title.
  const title = useCurrentRoute().route?.title;
  useEffect(() => {
    document.title = [title, PRODUCT_NAME].filter(Boolean).join(' · ');
  }, [title]);
  return (
    <div className="public-shell">
      <header className="public-header">
        <Logo size={36} />
        <span className="public-brand">{PRODUCT_NAME}</span>
      </header>
      <main className="public-main" id="main">
        {children ?? <ScreenOutlet />}
      </main>
      <Footer />
    </div>
  );
}

/** The public layout with the screen on a centred card (login, sign-out). */
export function CardLayout() {
  return (
    <PublicLayout>
      <div className="card">
        <ScreenOutlet />
      </div>
    </PublicLayout>
  );
}
