import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import {
  formatPrice,
  MSG,
  MSG_BILLING,
  ROUTES,
  YEARLY_BILLING_ENABLED,
  type BillingInfo,
  type OneTimeProduct,
  type PurchaseAnswer,
  type SubscriptionProduct,
} from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { billingApi } from '../../api/instance';
import { queryKeys } from '../../api/queryKeys';
import { SALES_EMAIL } from '../../config';
import { formatCredits, formatDate } from '../../state/billingFigures';
import { useCredits } from '../../hooks/useCredits';
import { creditsInfo, invalidateCredits } from '../../state/credits';
import { session } from '../../state/session';
import { showToast } from '../../state/toasts';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { IconMail, IconRefresh } from '../../ui/icons';
import { Markdown } from '../../ui/Markdown';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { PageSpinner } from '../../ui/Spinner';
import { ReasonTooltip } from '../../ui/Tooltip';
import { followPurchase } from '../../billing/billingActions';
import { ChangePlanDialog, type PlanChange } from './ChangePlanDialog';
import { billingInterval, planAction } from './pricingRules';
import { TopUpSection } from './TopUpSection';
import './pricing.css';

type Billing = 'monthly' | 'yearly';

const BILLING_OPTIONS = [
  { value: 'monthly', label: 'Monthly' },
  {
    value: 'yearly',
    label: (
      <>
        Yearly <span className="pill pill--muted">{MSG_BILLING.yearlyComingSoon}</span>
      </>
    ),
    disabled: !YEARLY_BILLING_ENABLED,
  },
] as const;

interface Catalog {
  plans: SubscriptionProduct[];
  topUps: OneTimeProduct[];
}

/** The public catalogue (no session needed). */
function useCatalog() {
  // Asked when the page opens; Try again asks again (the error goes while it does).
  const query = useQuery({
    queryKey: queryKeys.catalog(),
    queryFn: async (): Promise<Catalog> => {
      const [plans, topUps] = await Promise.all([billingApi.subscriptions(), billingApi.oneTime()]);
      return { plans: [...plans].sort((a, b) => a.price.unit_amount - b.price.unit_amount), topUps };
    },
    refetchOnMount: 'always',
    retry: false,
    networkMode: 'always',
  });
  return {
    catalog: query.data ?? null,
    error: query.isError && !query.isFetching ? errorMessage(query.error) : null,
    reload: () => void query.refetch(),
  };
}

/** Honours a URL hash such as #top-up once the sections it may point at are on the page (spec section 2). */
function useScrollToHash(ready: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [ready, hash]);
}

/** Toast text for a settled plan purchase or change. */
function planSettledText(answer: PurchaseAnswer, target: SubscriptionProduct, info: BillingInfo | null) {
  if (answer.status === 'scheduled') {
    const when = info?.subscription.termEnd ? ` on ${formatDate(info.subscription.termEnd)}` : '';
    return `Your plan changes to ${target.name}${when}, at the start of the next billing cycle.`;
  }
  return `You are on the ${target.name} plan: ${formatCredits(target.quota.credits)} credits were added.`;
}

export function PricingScreen() {
  const { token } = useSnapshot(session);
  const { info: billingInfo, status: billingStatus, error: billingError } = useCredits();
  const signedIn = !!token;
  const { catalog, error, reload } = useCatalog();
  const [billing, setBilling] = useState<Billing>('monthly');
  const [busyPlan, setBusyPlan] = useState<string | null>(null);
  const [change, setChange] = useState<PlanChange | null>(null);
  // Wait for what changes the layout above the target (the plans, and the user's plan line).
  useScrollToHash(!!catalog && (!signedIn || !!billingInfo || billingStatus === 'error'));

  // Which plan is the user's decides every button: make sure it is known.
  useEffect(() => {
    if (signedIn && !creditsInfo()) void invalidateCredits();
  }, [signedIn]);

  const purchase = async (target: SubscriptionProduct, call: () => Promise<PurchaseAnswer>) => {
    setBusyPlan(target.id);
    try {
      const answer = await call();
      if ((await followPurchase(answer)) === 'settled') {
        showToast(planSettledText(answer, target, creditsInfo()), { tone: 'success', durationMs: 6000 });
      }
      setChange(null);
    } catch (e) {
      showToast(errorMessage(e), { tone: 'error' });
    } finally {
      setBusyPlan(null);
    }
  };

  const currentPlanId = billingInfo?.subscription.product.id ?? null;

  return (
    <div className="page pricing">
      <div className="page__header pricing__header spread">
        <div>
          <h1 className="page__title">Pricing</h1>
          <p className="page__subtitle">Monthly plans for steady use, top-ups when you need more.</p>
          {billingInfo && (
            <p className="pricing__current">
              Your plan: <strong>{billingInfo.subscription.product.name}</strong> · {formatCredits(billingInfo.creditsLeft)} credits left
            </p>
          )}
        </div>
        <SegmentedControl<Billing> label="Billing period" value={billing} options={BILLING_OPTIONS} onValueChange={setBilling} />
      </div>

      {error && !catalog && (
        <div className="stack">
          <Alert tone="error" title="The plans could not be loaded">
            {error}
          </Alert>
          <div>
            <Button variant="secondary" onClick={reload}>
              <IconRefresh size={16} /> Try again
            </Button>
          </div>
        </div>
      )}
      {!catalog && !error && <PageSpinner label="Loading plans" />}

      {signedIn && !billingInfo && billingStatus === 'error' && (
        <div className="pricing__billing-error">
          <Alert tone="error">{MSG.billingError(billingError ?? MSG.unexpected)}</Alert>
          <Button variant="secondary" size="sm" onClick={() => void invalidateCredits({ quiet: true })}>
            <IconRefresh size={16} /> Try again
          </Button>
        </div>
      )}

      {catalog && (
        <>
          <section aria-labelledby="plans-title" id="plans">
            <h2 id="plans-title" className="visually-hidden">
              Subscription plans
            </h2>
            <ul className="plans">
              {catalog.plans.map((plan) => {
                const action = planAction(plan, signedIn, billingInfo);
                const isCurrent = plan.id === currentPlanId;
                const pending = billingInfo?.subscription.pendingProduct?.id === plan.id;
                return (
                  <li key={plan.id} className={`plan${isCurrent ? ' plan--current' : ''}`} aria-label={`${plan.name} plan`}>
                    <div className="plan__top">
                      <h3 className="plan__name">{plan.name}</h3>
                      {isCurrent && <span className="pill pill--accent">Current plan</span>}
                      {pending && billingInfo?.subscription.termEnd && (
                        <span className="pill pill--muted">Starts {formatDate(billingInfo.subscription.termEnd)}</span>
                      )}
                    </div>
                    <p className="plan__tagline">{plan.tagline}</p>
                    <p className="plan__price">
                      <span className="plan__amount">{formatPrice(plan.price.unit_amount, plan.price.currency)}</span>
                      <span className="plan__interval"> / {billingInterval(plan.price)}</span>
                    </p>
                    <Markdown source={plan.description} className="plan__description" />
                    <div className="plan__action">
                      {action.kind === 'register' ? (
                        <Button asChild block>
                          <Link to={ROUTES.register}>{action.label}</Link>
                        </Button>
                      ) : action.kind === 'current' ? (
                        <Button block variant="secondary" disabled>
                          {action.label}
                        </Button>
                      ) : action.kind === 'scheduled' ? (
                        <ReasonTooltip
                          reason={`Already scheduled: your plan changes to ${plan.name} at the start of the next billing cycle.`}
                          side="top"
                        >
                          <Button block variant="secondary" disabled>
                            {action.label}
                          </Button>
                        </ReasonTooltip>
                      ) : (
                        <Button
                          block
                          variant={action.kind === 'change' && action.direction === 'downgrade' ? 'secondary' : 'primary'}
                          busy={(action.kind === 'loading' && billingStatus !== 'error') || busyPlan === plan.id}
                          disabled={busyPlan !== null || action.kind === 'loading'}
                          onClick={() => {
                            // Every plan choice is confirmed first: without a payment provider it settles at once.
                            if (action.kind === 'buy') setChange({ target: plan, direction: 'buy' });
                            else if (action.kind === 'change') setChange({ target: plan, direction: action.direction });
                          }}
                        >
                          {action.label}
                        </Button>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>

          {catalog.topUps[0] && <TopUpSection product={catalog.topUps[0]} signedIn={signedIn} />}

          <section className="enterprise spread" aria-labelledby="enterprise-title" id="enterprise">
            <div>
              <h2 id="enterprise-title" className="enterprise__title">
                Enterprise
              </h2>
              <p className="muted">
                Larger volumes of credits and storage, invoicing and a contact person for your team. Write to us and we will put a plan
                together.
              </p>
            </div>
            <div className="enterprise__contact">
              <Button asChild variant="secondary">
                <a href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Clipseek Enterprise')}`}>
                  <IconMail size={16} /> Contact sales
                </a>
              </Button>
              <span className="enterprise__email">{SALES_EMAIL}</span>
            </div>
          </section>
        </>
      )}

      {billingInfo && (
        <ChangePlanDialog
          change={change}
          info={billingInfo}
          busy={busyPlan !== null}
          onClose={() => setChange(null)}
          onConfirm={(c) =>
            void purchase(c.target, () =>
              c.direction === 'buy' ? billingApi.buySubscription(c.target.id) : billingApi.changeSubscription(c.target.id),
            )
          }
        />
      )}
    </div>
  );
}
