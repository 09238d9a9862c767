import Stripe from 'stripe';
import type { InvoiceRow } from '../../modules/billing/billing.repository';
import type { CheckoutRequest, PaymentProvider } from './paymentProvider';

/** Stripe Checkout, Billing portal and hosted invoices; results arrive by signed webhooks. */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly stripe: Stripe;
  constructor(
    secretKey: string,
    private readonly webhookSecret: string | null,
  ) {
    this.stripe = new Stripe(secretKey);
  }

  async checkout(req: CheckoutRequest) {
    const session = await this.stripe.checkout.sessions.create({
      mode: req.kind === 'subscription' ? 'subscription' : 'payment',
      line_items: [{ price: req.product.price.id, quantity: req.quantity }],
      ...(req.customerId ? { customer: req.customerId } : { customer_email: req.email }),
      client_reference_id: req.userId,
      metadata: { userId: req.userId, productId: req.product.id, kind: req.kind, quantity: String(req.quantity) },
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe did not return a checkout URL');
    return { url: session.url };
  }

  async changeSubscription(req: { providerRef: string | null; product: { price: { id: string } }; now: boolean }) {
    if (!req.providerRef) return;
    const sub = await this.stripe.subscriptions.retrieve(req.providerRef);
    const item = sub.items.data[0];
    if (!item) return;
    // Upgrade: the new plan's full price now and a new cycle from today, as the local provider settles
    // it and the confirm dialog says (no proration: what was paid before is already the user's credits,
    // which stay). Downgrade: no proration, the new price applies at renewal.
    await this.stripe.subscriptions.update(req.providerRef, {
      items: [{ id: item.id, price: req.product.price.id }],
      proration_behavior: 'none',
      billing_cycle_anchor: { type: req.now ? 'now' : 'unchanged' },
    });
  }

  async portalUrl(user: { customerId: string | null }, returnUrl: string) {
    if (!user.customerId) throw new Error('No Stripe customer yet: buy something first.');
    return (await this.stripe.billingPortal.sessions.create({ customer: user.customerId, return_url: returnUrl })).url;
  }

  async invoiceUrl(invoice: InvoiceRow) {
    if (!invoice.provider_ref) throw new Error('This invoice has no Stripe reference.');
    const inv = await this.stripe.invoices.retrieve(invoice.provider_ref);
    if (!inv.hosted_invoice_url) throw new Error('Stripe has no page for this invoice.');
    return inv.hosted_invoice_url;
  }

  /** Verifies the signature of a webhook body and parses the event. */
  parseWebhook(rawBody: Buffer, signature: string): Stripe.Event {
    if (!this.webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not configured');
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
  }
}
