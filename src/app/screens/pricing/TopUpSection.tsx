import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatPrice, MSG_BILLING, ROUTES, TOP_UP_MAX_QUANTITY, type OneTimeProduct } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { billingApi } from '../../api/instance';
import { formatCredits } from '../../state/billingFigures';
import { showToast } from '../../state/toasts';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { formatHours } from '../../ui/format';
import { Markdown } from '../../ui/Markdown';
import { followPurchase } from '../../billing/billingActions';
import { clampQuantity } from './pricingRules';

/** − [n] + : a whole number from 1 to TOP_UP_MAX_QUANTITY. */
function QuantityPicker({ value, onChange, disabled }: { value: number; onChange: (n: number) => void; disabled?: boolean }) {
  // The field may be empty while the user types; the quantity itself is always valid.
  const [text, setText] = useState(String(value));
  const set = (n: number) => {
    const q = clampQuantity(n);
    onChange(q);
    setText(String(q));
  };
  return (
    <div className="quantity" role="group" aria-label="Quantity">
      <button type="button" className="quantity__step" aria-label="Fewer" disabled={disabled || value <= 1} onClick={() => set(value - 1)}>
        −
      </button>
      <input
        className="quantity__input"
        type="number"
        inputMode="numeric"
        min={1}
        max={TOP_UP_MAX_QUANTITY}
        value={text}
        aria-label="Number of top-ups"
        disabled={disabled}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value !== '') onChange(clampQuantity(Number(e.target.value)));
        }}
        onBlur={() => set(Number(text) || 1)}
      />
      <button
        type="button"
        className="quantity__step"
        aria-label="More"
        disabled={disabled || value >= TOP_UP_MAX_QUANTITY}
        onClick={() => set(value + 1)}
      >
        +
      </button>
    </div>
  );
}

/**
 * Confirms a top-up before anything is charged, as a plan change is confirmed (without a payment
 * provider a purchase settles at once, so one click must not spend money): what is paid, what
 * arrives, how long the credits last. Cancel, the close button and Escape leave everything as it was.
 */
function ConfirmTopUpDialog({
  open,
  product,
  quantity,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  product: OneTimeProduct;
  quantity: number;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const total = formatPrice(product.price.unit_amount * quantity, product.price.currency);
  const credits = formatCredits(product.quota.credits * quantity);
  const storage = product.quota.storageHours * quantity;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o && !busy) onClose();
      }}
      title={`Buy ${quantity > 1 ? `${quantity} × ` : ''}${product.name}?`}
      description={`A one-time purchase of ${total}: it does not renew.`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={onConfirm} busy={busy}>
            Pay {total} for {credits} credits
          </Button>
        </>
      }
    >
      <ul className="plan-change__points">
        <li>
          <strong>You pay {total} now</strong>, charged immediately.
        </li>
        <li>
          <strong>{credits} credits</strong> are added to your balance right away, and last {product.quota.creditsLifetimeDays} days.
        </li>
        {storage > 0 && <li>Your storage allowance grows by {formatHours(storage)}.</li>}
      </ul>
    </Dialog>
  );
}

/** One-time credits (and storage), in any quantity; anchored at #top-up. */
export function TopUpSection({ product, signedIn }: { product: OneTimeProduct; signedIn: boolean }) {
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const total = formatPrice(product.price.unit_amount * quantity, product.price.currency);
  const creditsTotal = formatCredits(product.quota.credits * quantity);

  const buy = async () => {
    setBusy(true);
    try {
      const answer = await billingApi.buyTopUp(quantity);
      const settled = (await followPurchase(answer)) === 'settled';
      // The dialog goes first: a toast that appears while it is open would be lifted over its footer.
      setConfirming(false);
      if (settled)
        showToast(`${creditsTotal} credits were added to your balance.`, { title: 'Top-up complete', tone: 'success', durationMs: 6000 });
    } catch (e) {
      showToast(errorMessage(e), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="top-up" id="top-up" aria-labelledby="top-up-title">
      <div className="top-up__info">
        <p className="top-up__kicker">One-time purchase</p>
        <h2 id="top-up-title" className="top-up__title">
          {product.name}
        </h2>
        <p className="muted">{product.tagline}</p>
        <Markdown source={product.description} className="top-up__description" />
      </div>
      <div className="top-up__buy">
        <p className="plan__price">
          <span className="plan__amount">{formatPrice(product.price.unit_amount, product.price.currency)}</span>
          <span className="plan__interval"> each</span>
        </p>
        <QuantityPicker value={quantity} onChange={setQuantity} disabled={busy} />
        <p className="top-up__total" aria-live="polite">
          {creditsTotal} credits · <strong>{total}</strong>
        </p>
        {signedIn ? (
          <>
            <Button block busy={busy} onClick={() => setConfirming(true)}>
              Buy for {total}
            </Button>
            <ConfirmTopUpDialog
              open={confirming}
              product={product}
              quantity={quantity}
              busy={busy}
              onConfirm={() => void buy()}
              onClose={() => setConfirming(false)}
            />
          </>
        ) : (
          <Button asChild block>
            <Link to={ROUTES.register}>{MSG_BILLING.createAccount}</Link>
          </Button>
        )}
      </div>
    </section>
  );
}
