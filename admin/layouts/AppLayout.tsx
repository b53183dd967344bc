import { useAtomValue } from 'jotai';
import { useScrollToHash } from '../hooks/useScrollToHash';
import { ScreenOutlet } from './ScreenOutlet';
import { UnsavedChangesProvider } from '../components/unsaved/UnsavedChanges';
import { Footer } from './Footer';
import { Notices } from './Notices';
import { SideNav, navCollapsedAtom } from './SideNav';
import { TopBar } from './TopBar';
import './layouts.css';

/** The signed-in shell: black side navigation, top bar, the screen, footer. */
export function AppLayout() {
  const collapsed = useAtomValue(navCollapsedAtom);
  useScrollToHash();
  return (
    <UnsavedChangesProvider>
      <div className={collapsed ? 'app-shell nav-collapsed' : 'app-shell'}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SideNav />
        <div className="app-main">
          <TopBar />
          <main className="app-content" id="main">
            <Notices />
            <ScreenOutlet />
          </main>
          <Footer withAbout />
        </div>
      </div>
    </UnsavedChangesProvider>
  );
}
