/** Everything a screen reads from above: the page's store, the session, and the confirmation dialog. */
import type { ReactNode } from 'react';
import { Provider as JotaiProvider } from 'jotai';
import { ConfirmProvider } from './components/confirm/ConfirmProvider';
import { SessionContext } from './state/services';
import type { JotaiStore, Session } from './state/session';

export function AdminProviders({ session, store, children }: { session: Session; store: JotaiStore; children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <SessionContext.Provider value={session}>
        <ConfirmProvider>{children}</ConfirmProvider>
      </SessionContext.Provider>
    </JotaiProvider>
  );
}
