import type { OneTimeProduct, SubscriptionProduct } from '../../../contract';
import type { InvoiceRow } from '../../modules/billing/billing.repository';

export interface CheckoutRequest {
  userId: string;
  email: string;
  customerId: string | null;
  kind: 'one-time' | 'subscription';
  product: OneTimeProduct | SubscriptionProduct;
  quantity: number;
  successUrl: string;
  cancelUrl: string;
}

/**
 * Where money is taken. The local provider settles at once (the service applies the purchase
 * itself) and serves its own invoice and portal pages; Stripe answers with hosted pages and later
 * tells the server through signed webhooks.
 */
export interface PaymentProvider {
  readonly kind: 'local' | 'stripe';
  /** null: settled now, apply it; a URL: send the person there to pay. */
  checkout(req: CheckoutRequest): Promise<{ url: string } | null>;
  /** Switches a provider-side subscription's plan (upgrade now, or at the next cycle). null when there is nothing to do there. */
  changeSubscription(req: { providerRef: string | null; product: SubscriptionProduct; now: boolean }): Promise<void>;
  portalUrl(user: { id: string; customerId: string | null }, returnUrl: string): Promise<string>;
  invoiceUrl(invoice: InvoiceRow): Promise<string>;
  /** Stripe: the event of a webhook, when its signature over the exact bytes holds (throws otherwise). */
  parseWebhook?(rawBody: Buffer, signature: string): import('stripe').Stripe.Event;
  /** The local provider: whether a portal link (user, expiry, signature) is its own and current. */
  verifyPortal?(userId: string, exp: string, sig: string): boolean;
  /** The local provider: whether an invoice link's signature is its own. */
  verifyInvoice?(id: string, sig: string): boolean;
}
