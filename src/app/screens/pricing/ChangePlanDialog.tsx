import { formatPrice, type BillingInfo, type SubscriptionProduct } from '../../../contract';
import { formatCredits, formatDate, formatHours } from '../../state/billingFigures';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { storageAfterChange } from './pricingRules';

export interface PlanChange {
  target: SubscriptionProduct;
  direction: 'upgrade' | 'downgrade';
}

const monthly = (p: SubscriptionProduct) => `${formatPrice(p.price.unit_amount, p.price.currency)} / ${p.price.interval ?? 'month'}`;

/**
 * Confirms a plan change for a subscriber (spec section 4): an upgrade is paid now and its credits
 * arrive now; a downgrade waits for the next billing cycle, when the storage allowance is lowered.
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
  const upgrade = change?.direction === 'upgrade';
  const cycleEnd = info.subscription.termEnd ? formatDate(info.subscription.termEnd) : null;
  const newStorage = target ? storageAfterChange(info, target) : 0;
  const overNewAllowance = !!target && !upgrade && info.usage.storageHours > newStorage;

  return (
    <Dialog
      open={!!change}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title={target ? `${upgrade ? 'Upgrade' : 'Downgrade'} to ${target.name}?` : ''}
      description={target ? `From ${current.name} (${monthly(current)}) to ${target.name} (${monthly(target)}).` : undefined}
      footer={
        change && (
          <>
            <Button variant="ghost" onClick={onClose} disabled={busy}>
              Keep {current.name}
            </Button>
            <Button onClick={() => onConfirm(change)} busy={busy}>
              {upgrade ? `Upgrade and pay ${formatPrice(change.target.price.unit_amount, change.target.price.currency)}` : 'Downgrade'}
            </Button>
          </>
        )
      }
    >
      {target && (
        <div className="plan-change">
          {upgrade ? (
            <ul className="plan-change__points">
              <li>
                <strong>You pay {formatPrice(target.price.unit_amount, target.price.currency)} now</strong>, charged immediately, and your
                new billing cycle starts today.
              </li>
              <li>
                <strong>{formatCredits(target.quota.credits)} credits</strong> are added to your balance right away.
              </li>
              <li>Your storage allowance becomes {formatHours(newStorage)} at once.</li>
            </ul>
          ) : (
            <ul className="plan-change__points">
              <li>
                <strong>Nothing changes until the next billing cycle</strong>
                {cycleEnd ? ` (${cycleEnd})` : ''}: you keep {current.name} and its credits until then.
              </li>
              <li>
                From then on you pay {monthly(target)} and get {formatCredits(target.quota.credits)} credits a month.
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
