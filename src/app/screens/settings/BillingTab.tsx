import { Link } from 'react-router-dom';
import { ROUTES } from '../../../contract';
import { Button } from '../../ui/Button';
import { IconCard } from '../../ui/icons';

/**
 * Seam for the billing tab (credits, plan, renewal, storage, credit notes, invoices, portal
 * actions). The billing issue replaces this body; it states plainly that nothing is shown yet.
 */
export function BillingTab() {
  return (
    <section className="card" aria-labelledby="billing-title">
      <div className="empty-state">
        <span className="empty-state__icon">
          <IconCard size={26} />
        </span>
        <h2 id="billing-title" className="card__title">
          Billing
        </h2>
        <p className="empty-state__text">Credits, plans and invoices are not part of this version of Clipseek yet.</p>
        <Button asChild variant="secondary">
          <Link to={ROUTES.pricing}>See pricing</Link>
        </Button>
      </div>
    </section>
  );
}
