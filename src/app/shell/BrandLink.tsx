import { Link } from 'react-router-dom';
import { ROUTES } from '../../contract';
import { Logo } from '../ui/icons';

/** The Clipseek mark and name, linking home. */
export function BrandLink({ to = ROUTES.root, logoSize }: { to?: string; logoSize: number }) {
  return (
    <Link to={to} className="brand" aria-label="Clipseek home">
      <Logo size={logoSize} />
      <span className="brand__name">Clipseek</span>
    </Link>
  );
}
