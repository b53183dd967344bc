import { Link } from 'react-router-dom';
import { pathTo } from '../routing/routes';
import { PRODUCT_NAME } from './icons';
import './layouts.css';

/** `withAbout` for signed-in staff: the About screen (version, build, database, licences). */
export function Footer({ withAbout = false }: { withAbout?: boolean }) {
  return (
    <footer className="footer">
      © {new Date().getFullYear()} {PRODUCT_NAME} · Clinical-trial recruitment back-office
      {withAbout && (
        <>
          {' · '}
          <Link to={pathTo('About')}>About</Link>
        </>
      )}
    </footer>
  );
}
