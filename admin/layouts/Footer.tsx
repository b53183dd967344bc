import { PRODUCT_NAME } from './icons';

export function Footer() {
  return (
    <footer className="footer">
      © {new Date().getFullYear()} {PRODUCT_NAME} · Clinical-trial recruitment back-office
    </footer>
  );
}
