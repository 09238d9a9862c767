import { formatPrice, type BillingInfo, type SubscriptionProduct } from '../../../contract';
import { formatCredits, formatDate } from '../../state/billingFigures';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { billingInterval, creditsKept, priceWithInterval, storageAfterChange } from './pricingRules';
import { formatHours } from '../../ui/format';

/** A plan the user chose on the pricing page: bought from the Free Trial, or a subscriber's upgrade or downgrade. */
export interface PlanChange {
  target: SubscriptionProduct;
  direction: 'buy' | 'upgrade' | 'downgrade';
}

/**
 * Confirms every plan choice before anything is charged or changed (spec section 4, and issue 19:
 * without a payment provider a purchase settles at once, so one click must not change the plan).
 * The dialog names the plan, its price and interval. Buying from the Free Trial and upgrading are paid
 * now and their credits arrive now; a downgrade waits for the next billing cycle, when the storage
 * allowance is lowered. Cancel, the close button and Escape leave everything as it was.
 */
export function ChangePlanDialog({
  change,
  info,
  busy,
  onConfirm,
  onClose,
}: {
  change: PlanChange | null;
  info: BillingInfo;
  busy: boolean;
  onConfirm: (change: PlanChange) => void;
  onClose: () => void;
}) {
  const current = info.subscription.product;
  const target = change?.target;
  const downgrade = change?.direction === 'downgrade';
  const cycleEnd = info.subscription.termEnd ? formatDate(info.subscription.termEnd) : null;
  const newStorage = target ? storageAfterChange(info, target) : 0;
  const overNewAllowance = !!target && downgrade && info.usage.storageHours > newStorage;
  const price = target ? formatPrice(target.price.unit_amount, target.price.currency) : '';
  const kept = creditsKept(info);
  const keptFrom = [
    kept.topUps > 0 && `${formatCredits(kept.topUps)} from top-ups`,
    kept.plan > 0 && `${formatCredits(kept.plan)} from your ${current.name} plan`,
    kept.other > 0 && `${formatCredits(kept.other)} from bonuses`,
  ].filter(Boolean);

  return (
    <Dialog
      open={!!change}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title={target ? `${downgrade ? 'Downgrade' : 'Upgrade'} to ${target.name}?` : ''}
      description={
        target &&
        (change.direction === 'buy'
          ? `${target.name} plan: ${priceWithInterval(target.price)}, billed every ${billingInterval(target.price)} until you cancel.`
          : `From ${current.name} (${priceWithInterval(current.price)}) to ${target.name} (${priceWithInterval(target.price)}).`)
      }
      footer={
        change && (
          <>
            <Button variant="ghost" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button onClick={() => onConfirm(change)} busy={busy}>
              {downgrade ? 'Confirm downgrade' : `Confirm and pay ${price}`}
            </Button>
          </>
        )
      }
    >
      {target && (
        <div className="plan-change">
          {!downgrade ? (
            <ul className="plan-change__points">
              <li>
                <strong>You pay {price} now</strong>, charged immediately, then {priceWithInterval(target.price)}; your{' '}
                {change.direction === 'buy' ? '' : 'new '}billing cycle starts today.
              </li>
              <li>
                <strong>{formatCredits(target.quota.credits)} credits</strong> are added to your balance right away.
              </li>
              <li>Your storage allowance becomes {formatHours(newStorage)} at once.</li>
              {change.direction === 'upgrade' && (
                <li data-testid="plan-change-proration">
                  <strong>No proration:</strong> nothing you paid before is credited against {price}. What you bought is already in your
                  balance as credits, and it stays there: you keep your{' '}
                  {kept.total > 0 ? (
                    <>
                      {formatCredits(kept.total)} credits{keptFrom.length ? ` (${keptFrom.join(', ')})` : ''}, each until it expires
                    </>
                  ) : (
                    'balance'
                  )}
                  , and the new credits come on top.
                </li>
              )}
            </ul>
          ) : (
            <ul className="plan-change__points">
              <li>
                <strong>Nothing changes until the next billing cycle</strong>
                {cycleEnd ? ` (${cycleEnd})` : ''}: you keep {current.name} and its credits until then.
              </li>
              <li>
                From then on you pay {priceWithInterval(target.price)} and get {formatCredits(target.quota.credits)} credits each{' '}
                {billingInterval(target.price)}.
              </li>
              <li>
                <strong>Your storage allowance is lowered</strong> to {formatHours(newStorage)} at the start of that cycle.
              </li>
            </ul>
          )}
          {overNewAllowance && (
            <Alert tone="warning">
              You use {formatHours(info.usage.storageHours)} of storage, more than the new allowance. Remove some videos before the next
              cycle to keep adding new ones.
            </Alert>
          )}
        </div>
      )}
    </Dialog>
  );
}
