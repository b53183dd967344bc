import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Loading } from '../components/Loading';
import { ChunkLoadError } from '../routing/lazyScreen';
import './layouts.css';

interface BoundaryState {
  error: unknown;
}

/** Catches a screen that failed to load or to render, and offers to reload the page. */
export class ScreenBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Screen failed', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = error instanceof ChunkLoadError;
    return (
      <div className="error-panel" role="alert">
        <h2>{chunk ? 'This screen could not be loaded.' : 'Something went wrong on this screen.'}</h2>
        <p>
          {chunk
            ? 'The connection may be slow or the application was updated. Reload the page to try again.'
            : 'Reload the page to try again. If it keeps happening, contact your administrator.'}
        </p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}

/** Where a layout shows its screen: one boundary per page, so an error stays on its page. */
export function ScreenOutlet() {
  const { pathname } = useLocation();
  return (
    <ScreenBoundary key={pathname}>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </ScreenBoundary>
  );
}
