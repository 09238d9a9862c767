import { Link } from 'react-router-dom';
import { ROUTES } from '../../../contract';
import { Button } from '../../ui/Button';
import { IconSearch } from '../../ui/icons';
import { SectionPlaceholder } from './SectionPlaceholder';

// Seam for the search issue (a reachable route with honest content), and the not-found page.

export function SearchScreen() {
  return <SectionPlaceholder title="Search" icon={<IconSearch size={26} />} text="Search is not part of this version of Clipseek yet." />;
}

export function NotFoundScreen() {
  return (
    <SectionPlaceholder title="Page not found" icon={<IconSearch size={26} />} text="There is nothing at this address.">
      <Button asChild variant="secondary">
        <Link to={ROUTES.root}>Go to homepage</Link>
      </Button>
    </SectionPlaceholder>
  );
}
