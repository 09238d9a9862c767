import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { expiryLabel, formatPrice, MSG, MSG_BILLING, ROUTES, type BillingCreditNote, type BillingInfo } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { billingApi } from '../../api/instance';
import { creditFigures, formatCredits, formatDate, hasSubscription, notesBySpendOrder, renewalState } from '../../state/billingFigures';
import { useCredits } from '../../hooks/useCredits';
import { awaitCreditsChange, creditsInfo, invalidateCredits } from '../../state/credits';
import { showToast } from '../../state/toasts';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { IconCard, IconDatabase, IconExternal, IconRefresh, IconSparkle } from '../../ui/icons';
import { Markdown } from '../../ui/Markdown';
import { ProgressBar } from '../../ui/ProgressBar';
import { Spinner } from '../../ui/Spinner';
import { openExternal } from '../../billing/billingActions';
import { InvoiceList } from './InvoiceList';
import { UsageHistory } from './UsageHistory';
import { formatHours, formatHoursMinutes } from '../../ui/format';
import './billing.css';

/** How long the tab waits for billing data before saying it failed to load (spec section 8). */
export const BILLING_LOAD_TIMEOUT_MS = 15_000;

/** Opens the billing portal (cancel, invoices) in a new tab. */
function openPortal() {
  void openExternal(
    async () => (await billingApi.portal()).url,
    (e) => showToast(errorMessage(e), { tone: 'error' }),
  );
}

/** Loading, failure and timeout of the first load; the page itself once there is data. */
export function BillingTab() {
  // Coming back from the billing portal's tab shows what was changed there: refetched on focus
  // even when fresh.
  const { info, status, error } = useCredits({ refetchOnWindowFocus: 'always' });
  const [timedOut, setTimedOut] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  const waiting = !info && status !== 'error';

  // Fresh figures whenever the tab opens (a purchase or a cancellation may have happened elsewhere);
  // a failure is toasted when there are figures on screen, else the tab says it.
  useEffect(() => {
    void invalidateCredits({ quiet: !creditsInfo() });
  }, []);

  useEffect(() => {
    if (!waiting) return;
    setTimedOut(false);
    const timer = setTimeout(() => setTimedOut(true), BILLING_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [waiting]);

  // Checkout pages send the user back here with ?purchase=success.
  useEffect(() => {
    if (searchParams.get('purchase') !== 'success') return;
    // The payment is credited when the provider's webhook arrives: follow the figures until it has.
    void awaitCreditsChange();
    showToast('Thank you! Your purchase is confirmed; the credits appear here as soon as the payment settles.', {
      tone: 'success',
      durationMs: 6000,
    });
    setSearchParams({}, { replace: true });
  }, [searchParams, setSearchParams]);

  if (!info) {
    const retry = (
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setTimedOut(false);
          void invalidateCredits({ quiet: true });
        }}
      >
        <IconRefresh size={16} /> Try again
      </Button>
    );
    return (
      <section className="card" aria-labelledby="billing-title">
        <h2 id="billing-title" className="visually-hidden">
          Billing
        </h2>
        {status === 'error' ? (
          <div className="billing-state">
            <Alert tone="error">{MSG.billingError(error ?? MSG.unexpected)}</Alert>
            {retry}
          </div>
        ) : timedOut ? (
          <div className="billing-state">
            <Alert tone="error">{MSG.billingTimeout}</Alert>
            {retry}
          </div>
        ) : (
          <div className="billing-state billing-state--loading" role="status">
            <Spinner size={22} />
            <span>{MSG.billingLoading}</span>
          </div>
        )}
      </section>
    );
  }
  return <BillingDetails info={info} />;
}

function PlanStatus({ subscription }: { subscription: BillingInfo['subscription'] }) {
  const state = renewalState(subscription);
  const pending = subscription.pendingProduct;
  return (
    <div className="plan-status">
      {state === 'renews' && subscription.termEnd && (
        <p className="plan-status__line">
          <span className="pill pill--accent">Active</span>
          <span>Renews on {formatDate(subscription.termEnd)}.</span>
        </p>
      )}
      {state === 'ends' && (
        <p className="plan-status__line plan-status__line--warning">
          <span>{MSG_BILLING.willNotRenew}</span>
          {subscription.termEnd && <span className="muted"> Your plan ends on {formatDate(subscription.termEnd)}.</span>}
        </p>
      )}
      {state === 'none' && <p className="plan-status__line muted">No subscription: upgrade to get monthly credits and more storage.</p>}
      {pending && subscription.termEnd && (
        <p className="plan-status__line muted">
          Changes to {pending.name} on {formatDate(subscription.termEnd)}, at the start of the next billing cycle.
        </p>
      )}
    </div>
  );
}

function expiryText(note: BillingCreditNote) {
  if (note.expired) return 'Expired';
  const label = expiryLabel(note.expiresAt);
  if (!label) return 'Never expires';
  return label === MSG_BILLING.withinTheDay ? `Expires ${label}` : `Expires in ${label}`;
}

function CreditNotes({ notes }: { notes: readonly BillingCreditNote[] }) {
  const usable = notesBySpendOrder(notes).filter((n) => !n.expired && n.credits.currentAmount > 0);
  if (!usable.length) return <p className="muted billing-empty">You have no credits left. Top up or upgrade your plan to get more.</p>;
  return (
    <ul className="credit-notes">
      {usable.map((n) => {
        const soon = expiryLabel(n.expiresAt) === MSG_BILLING.withinTheDay;
        return (
          <li key={n._id} className="credit-note">
            <div className="credit-note__main">
              <span className="credit-note__name">{n.invoiceName}</span>
              <span className={`credit-note__expiry${soon ? ' credit-note__expiry--soon' : ''}`}>{expiryText(n)}</span>
            </div>
            <div className="credit-note__amount">
              <strong>{formatCredits(n.credits.currentAmount)}</strong>
              <span className="muted"> of {formatCredits(n.credits.originalAmount)} left</span>
            </div>
            <ProgressBar
              value={n.credits.originalAmount ? n.credits.currentAmount / n.credits.originalAmount : 0}
              label={`${n.invoiceName}: credits left`}
            />
          </li>
        );
      })}
    </ul>
  );
}

/** One of the figures over the billing tab: a card with its icon, its label (naming the section) and what it says. */
function Stat({ id, icon, label, children }: { id: string; icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <section className="card stat" aria-labelledby={id}>
      <span className="stat__icon icon-tile">{icon}</span>
      <h3 id={id} className="stat__label">
        {label}
      </h3>
      {children}
    </section>
  );
}

function BillingDetails({ info }: { info: BillingInfo }) {
  const figures = creditFigures(info);
  const { subscription, limits, usage } = info;
  const { product } = subscription;
  const subscribed = hasSubscription(info);
  const storageShare = limits.storageHours > 0 ? usage.storageHours / limits.storageHours : 1;

  return (
    <div className="billing">
      <h2 className="visually-hidden">Billing</h2>
      <div className="billing__stats">
        <Stat id="stat-credits" icon={<IconSparkle size={20} />} label="Credits left">
          <p className="stat__value" data-testid="billing-credits-left">
            {formatCredits(info.creditsLeft)}
          </p>
          <p className="stat__hint">{formatHoursMinutes(figures.ingestLeftSeconds)} of video processing</p>
        </Stat>
        <Stat id="stat-plan" icon={<IconCard size={20} />} label="Plan">
          <p className="stat__value">{product.name}</p>
          <p className="stat__hint">
            {formatPrice(product.price.unit_amount, product.price.currency)}
            {product.price.interval && ` / ${product.price.interval}`}
          </p>
        </Stat>
        <Stat id="stat-storage" icon={<IconDatabase size={20} />} label="Storage">
          <p className="stat__value">
            {formatHours(usage.storageHours)} <span className="stat__of">of {formatHours(limits.storageHours)}</span>
          </p>
          <ProgressBar value={storageShare} label="Storage used" />
          <p className="stat__hint">{formatHoursMinutes(figures.storageLeftSeconds)} left</p>
        </Stat>
      </div>

      <section className="card billing-plan" aria-labelledby="plan-title">
        <div className="billing-plan__head">
          <div>
            <p className="billing-section__kicker">Your plan</p>
            <h3 id="plan-title" className="billing-plan__name">
              {product.name}
              <span className="billing-plan__price">
                {formatPrice(product.price.unit_amount, product.price.currency)}
                {product.price.interval && <span className="muted"> / {product.price.interval}</span>}
              </span>
            </h3>
            {product.tagline && <p className="muted">{product.tagline}</p>}
          </div>
          <Button asChild>
            <Link to={ROUTES.pricing}>
              <IconSparkle size={16} /> {MSG_BILLING.upgradePlan}
            </Link>
          </Button>
        </div>
        <PlanStatus subscription={subscription} />
        {product.description && <Markdown source={product.description} className="billing-plan__description" />}
        <div className="billing-plan__actions">
          {subscription.status === 'active' && (
            <Button variant="secondary" size="sm" onClick={openPortal}>
              {MSG_BILLING.cancelSubscription} <IconExternal size={14} />
            </Button>
          )}
          <Button variant="secondary" size="sm" onClick={openPortal}>
            {MSG_BILLING.manageInvoices} <IconExternal size={14} />
          </Button>
          {!subscribed && <span className="muted billing-plan__note">Invoices and payment details open in a new tab.</span>}
        </div>
      </section>

      <section className="card" aria-labelledby="notes-title">
        <h3 id="notes-title" className="card__title">
          Credit notes
        </h3>
        <p className="billing-section__text">The credits that expire soonest are used first.</p>
        <CreditNotes notes={info.creditNotes} />
      </section>

      <section className="card" aria-labelledby="invoices-title">
        <h3 id="invoices-title" className="card__title">
          Invoices
        </h3>
        <p className="billing-section__text">Every grant of credits. Open a purchase to see its invoice.</p>
        <InvoiceList notes={info.creditNotes} />
      </section>

      <section className="card" aria-labelledby="usage-title">
        <h3 id="usage-title" className="card__title">
          Credit activity
        </h3>
        <p className="billing-section__text">Credits granted and spent, newest first.</p>
        <UsageHistory version={info.creditsLeft} />
      </section>
    </div>
  );
}
