import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ROUTES } from '../../../contract';
import { session } from '../../state/session';
import { Button } from '../../ui/Button';
import { IconSearch, IconTag } from '../../ui/icons';
import { SectionPlaceholder } from './SectionPlaceholder';

// Seams for the search and billing issues: reachable routes with honest content.

export function SearchScreen() {
  return <SectionPlaceholder title="Search" icon={<IconSearch size={26} />} text="Search is not part of this version of Clipseek yet." />;
}

export function PricingScreen() {
  const { token } = useSnapshot(session);
  return (
    <SectionPlaceholder title="Pricing" icon={<IconTag size={26} />} text="Plans and top-ups are not part of this version of Clipseek yet.">
      {!token && (
        <Button asChild>
          <Link to={ROUTES.register}>Create an account</Link>
        </Button>
      )}
    </SectionPlaceholder>
  );
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
