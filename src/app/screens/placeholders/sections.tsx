import { Link } from 'react-router-dom';
import { ROUTES } from '../../../contract';
import { Button } from '../../ui/Button';
import { IconSearch } from '../../ui/icons';
import { SectionPlaceholder } from './SectionPlaceholder';

// The not-found page.

export function NotFoundScreen() {
  return (
    <SectionPlaceholder title="Page not found" icon={<IconSearch size={26} />} text="There is nothing at this address.">
      <Button asChild variant="secondary">
        <Link to={ROUTES.root}>Go to homepage</Link>
      </Button>
    </SectionPlaceholder>
  );
}
