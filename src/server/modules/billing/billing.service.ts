import type Stripe from 'stripe';
import {
  API,
  isAllowedRedirect,
  MSG_BILLING,
  ROUTES,
  settingsPath,
  USAGE_HISTORY_PAGE,
  type BillingCreditNote,
  type BillingInfo,
  type CreditOrigin,
  type OneTimeProduct,
  type PurchaseAnswer,
  type SubscriptionProduct,
  type UsageHistoryEntry,
} from '../../../contract';
import type { PaymentProvider } from '../../adapters/billing/paymentProvider';
import { AppError, badRequest, forbidden } from '../../errors';
import type { BillingRepository, SubscriptionRow } from './billing.repository';
import type { LedgerRepository } from './ledger.repository';
import type { MediaRepository } from '../libraries/media.repository';
import type { UserRepository, UserRow } from '../accounts/user.repository';
import type { Catalog } from './catalog';
import type { LedgerService } from './ledger.service';
import type { StorageQuota } from '../ports';

export interface BillingDeps {
  repo: BillingRepository;
  users: Pick<UserRepository, 'byId'>;
  ledger: LedgerService;
  ledgerRepo: LedgerRepository;
  media: MediaRepository;
  catalog: Catalog;
  provider: PaymentProvider;
  appUrl: () => string;
  allowedRedirectHosts: string[];
  signupBonus: { credits: number; days: number };
  /** Charges on their way for the user (media being indexed, renders being made): BillingInfo.pendingCharges. */
  chargesPending: (userId: string) => Promise<number>;
  now?: () => Date;
}

const DAY = 86_400_000;
const addMonth = (d: Date) => {
  const n = new Date(d);
  n.setUTCMonth(n.getUTCMonth() + 1);
  return n;
};
const iso = (d: Date | string) => new Date(d).toISOString();

/** Credits, plans, purchases and storage allowance (accounts spec sections 3, 4, 7, 9). */
export class BillingService implements StorageQuota {
  private readonly now: () => Date;
  constructor(private readonly d: BillingDeps) {
    this.now = d.now ?? (() => new Date());
  }

  get catalog() {
    return this.d.catalog;
  }

  private subscriptionProduct(id: string): SubscriptionProduct {
    if (id === this.d.catalog.freeTrial.id) return this.d.catalog.freeTrial;
    const p = this.d.catalog.subscriptions.find((s) => s.id === id);
    if (!p) throw new AppError('not_found', MSG_BILLING.noSuchProduct);
    return p;
  }

  private async plan(userId: string): Promise<{ sub: SubscriptionRow | null; product: SubscriptionProduct }> {
    const sub = (await this.d.repo.subscription(userId)) ?? null;
    if (!sub || sub.status !== 'active') return { sub, product: this.d.catalog.freeTrial };
    return { sub, product: this.subscriptionProduct(sub.product_id) };
  }

  /** Storage allowance: the plan's hours plus every top-up's hours. */
  async limitHours(userId: string) {
    const { product } = await this.plan(userId);
    return product.quota.storageHours + (await this.d.repo.topUpStorageHours(userId));
  }

  /** Which provider takes the money: its own routes are served only for it. */
  get providerKind(): PaymentProvider['kind'] {
    return this.d.provider.kind;
  }

  /** A Stripe webhook: its signature checked over the exact bytes, then its event applied once. */
  async stripeWebhook(rawBody: Buffer, signature: string) {
    if (!this.d.provider.parseWebhook) throw new AppError('not_found', 'Not found.');
    let event: Stripe.Event;
    try {
      event = this.d.provider.parseWebhook(rawBody, signature);
    } catch (err) {
      throw new AppError('bad_request', `Webhook signature verification failed: ${(err as Error).message}`);
    }
    return this.applyStripeEvent(event);
  }

  private checkPortalLink(userId: string, exp: string, sig: string) {
    if (!this.d.provider.verifyPortal?.(userId, exp, sig)) throw forbidden('This portal link is not valid or has expired.');
  }

  /** The local provider's portal page (its link checked): a user's billing, and invoices with their links. */
  async portal(userId: string, exp: string, sig: string) {
    this.checkPortalLink(userId, exp, sig);
    const user = await this.d.users.byId(userId);
    if (!user) throw new AppError('not_found', 'This account no longer exists.');
    const invoices = await this.d.repo.invoicesOf(userId);
    return {
      info: await this.info(user),
      invoices: await Promise.all(invoices.map(async (i) => ({ ...i, url: await this.d.provider.invoiceUrl(i) }))),
    };
  }

  /** The local portal's cancel button (its link checked). */
  async portalCancel(userId: string, exp: string, sig: string) {
    this.checkPortalLink(userId, exp, sig);
    await this.cancelAtPeriodEnd(userId);
  }

  /** An invoice and the account it was made out to (the local provider's invoice page, its link checked). */
  async invoice(id: string, sig: string) {
    if (!this.d.provider.verifyInvoice?.(id, sig)) throw forbidden('This invoice link is not valid.');
    const invoice = await this.d.repo.invoiceById(id);
    if (!invoice) throw new AppError('not_found', 'Invoice not found');
    return { invoice, owner: await this.d.users.byId(invoice.user_id) };
  }

  async info(user: UserRow): Promise<BillingInfo> {
    const [{ sub, product }, notes, invoices, limit, usedSeconds, balance, pendingCharges] = await Promise.all([
      this.plan(user.id),
      this.d.ledgerRepo.notes(user.id),
      this.d.repo.invoicesOf(user.id),
      this.limitHours(user.id),
      this.d.media.usedSeconds(user.id),
      this.d.ledger.balance(user.id),
      this.d.chargesPending(user.id),
    ]);
    const byId = new Map(invoices.map((i) => [i.id, i]));
    const now = this.now().getTime();
    const creditNotes: BillingCreditNote[] = notes.map((n) => {
      const inv = n.invoice_id ? byId.get(n.invoice_id) : undefined;
      return {
        _id: n.id,
        createdAt: iso(n.created_at),
        expiresAt: n.expires_at ? iso(n.expires_at) : null,
        expired: !!n.expires_at && new Date(n.expires_at).getTime() <= now,
        invoiceId: n.invoice_id,
        origin: n.origin as CreditOrigin,
        credits: { originalAmount: Number(n.original_amount), currentAmount: Number(n.current_amount) },
        invoiceNumber: inv ? `CS-${inv.number}` : null,
        invoiceName: inv
          ? `${inv.product_name}${inv.quantity > 1 ? ` × ${inv.quantity}` : ''}`
          : n.origin === 'signup'
            ? MSG_BILLING.signupBonus
            : 'Credits',
      };
    });
    const pending = sub?.status === 'active' && sub.pending_product_id ? this.subscriptionProduct(sub.pending_product_id) : null;
    return {
      creditsLeft: balance,
      creditNotes,
      limits: { storageHours: limit },
      usage: { storageHours: usedSeconds / 3600 },
      subscription: {
        status: sub?.status === 'active' && !sub.cancel_at_period_end ? 'active' : null,
        termEnd: sub?.status === 'active' ? iso(sub.term_end) : null,
        product,
        pendingProduct: pending,
      },
      pendingCharges,
    };
  }

  async usageHistory(user: UserRow, limit = USAGE_HISTORY_PAGE, olderThan?: string): Promise<UsageHistoryEntry[]> {
    const n = Math.min(Math.max(1, Math.floor(limit) || USAGE_HISTORY_PAGE), 100);
    let before: Date | undefined;
    if (olderThan) {
      before = new Date(olderThan);
      if (Number.isNaN(before.getTime())) throw badRequest('olderThan must be a date');
    }
    return (await this.d.ledgerRepo.entries(user.id, n, before)).map((e) => ({
      _id: e.id,
      updatedAt: iso(e.created_at),
      kind: e.kind,
      amount: Number(e.amount),
      reason: e.reason,
    }));
  }

  async grantSignupBonus(user: UserRow) {
    if (this.d.signupBonus.credits <= 0) return;
    await this.d.ledger.grant(user.id, {
      amount: this.d.signupBonus.credits,
      origin: 'signup',
      key: `signup:${user.id}`,
      reason: MSG_BILLING.signupBonus,
      expiresAt: new Date(this.now().getTime() + this.d.signupBonus.days * DAY),
    });
  }

  private redirect(url: string) {
    if (!isAllowedRedirect(url, this.d.allowedRedirectHosts, this.d.appUrl())) throw new AppError('forbidden', MSG_BILLING.redirectBlocked);
    return url;
  }

  private urls(kind: 'one-time' | 'subscription') {
    const base = this.d.appUrl();
    return {
      successUrl: `${base}${settingsPath('billing')}?purchase=success`,
      cancelUrl: `${base}${ROUTES.pricing}${kind === 'one-time' ? '#top-up' : ''}`,
    };
  }

  async purchaseOneTime(user: UserRow, quantity: number): Promise<PurchaseAnswer> {
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > 100) throw badRequest('quantity must be a whole number from 1 to 100');
    const product = this.d.catalog.oneTime[0];
    if (!product) throw new AppError('not_found', MSG_BILLING.noSuchProduct);
    const pay = await this.d.provider.checkout({
      userId: user.id,
      email: user.email,
      customerId: user.stripe_customer_id,
      kind: 'one-time',
      product,
      quantity,
      ...this.urls('one-time'),
    });
    if (pay) return { status: 'redirect', url: this.redirect(pay.url), invoiceId: null };
    // Settled at once: the key is fresh per call, as each click on "buy" is a new purchase.
    const invoiceId = await this.settleTopUp(
      user.id,
      product,
      quantity,
      `local:top-up:${user.id}:${this.now().getTime()}:${Math.random()}`,
      null,
    );
    return { status: 'paid', url: null, invoiceId };
  }

  /** Applies a paid top-up: numbered invoice, credits note, storage hours. Idempotent per key. */
  async settleTopUp(userId: string, product: OneTimeProduct, quantity: number, key: string, providerRef: string | null) {
    const invoice = await this.d.repo.invoice({
      user_id: userId,
      kind: 'top-up',
      product_id: product.id,
      product_name: product.name,
      quantity,
      amount: product.price.unit_amount * quantity,
      currency: product.price.currency,
      credits: product.quota.credits * quantity,
      storage_hours: product.quota.storageHours,
      provider: this.d.provider.kind,
      provider_ref: providerRef,
      idempotency_key: key,
    });
    await this.d.ledger.grant(userId, {
      amount: Number(invoice.credits),
      origin: 'top-up',
      key: `invoice:${invoice.id}`,
      reason: `${product.name}${quantity > 1 ? ` × ${quantity}` : ''}`,
      expiresAt: new Date(new Date(invoice.created_at).getTime() + product.quota.creditsLifetimeDays * DAY),
      invoiceId: invoice.id,
    });
    return invoice.id;
  }

  /**
   * A plan term's invoice and the credits it grants, which expire the plan's credit lifetime after
   * the term starts (`start`, or when the invoice is made). Idempotent per key.
   */
  private async termInvoice(
    userId: string,
    product: SubscriptionProduct,
    provider: string,
    providerRef: string | null,
    key: string,
    reason: string,
    start?: Date,
  ) {
    const invoice = await this.d.repo.invoice({
      user_id: userId,
      kind: 'subscription',
      product_id: product.id,
      product_name: product.name,
      quantity: 1,
      amount: product.price.unit_amount,
      currency: product.price.currency,
      credits: product.quota.credits,
      storage_hours: product.quota.storageHours,
      provider,
      provider_ref: providerRef,
      idempotency_key: key,
    });
    const from = start ?? new Date(invoice.created_at);
    await this.d.ledger.grant(userId, {
      amount: product.quota.credits,
      origin: 'subscription',
      key: `invoice:${invoice.id}`,
      reason,
      expiresAt: new Date(from.getTime() + product.quota.creditsLifetimeDays * DAY),
      invoiceId: invoice.id,
    });
    return invoice;
  }

  /** Starts (or restarts) a plan term now, with its invoice and its credits. Idempotent per key. */
  async settleSubscription(userId: string, product: SubscriptionProduct, key: string, providerRef: string | null) {
    const invoice = await this.termInvoice(userId, product, this.d.provider.kind, providerRef, key, `${product.name} plan`);
    const start = new Date(invoice.created_at);
    const existing = await this.d.repo.subscription(userId);
    await this.d.repo.upsertSubscription({
      user_id: userId,
      product_id: product.id,
      pending_product_id: null,
      status: 'active',
      term_start: start,
      term_end: addMonth(start),
      provider: this.d.provider.kind,
      provider_ref: providerRef ?? existing?.provider_ref ?? null,
    });
    return invoice.id;
  }

  async purchaseSubscription(user: UserRow, productId: string): Promise<PurchaseAnswer> {
    const product = this.subscriptionProduct(productId);
    if (product.id === this.d.catalog.freeTrial.id) throw badRequest(MSG_BILLING.freeTrialNotPurchasable);
    const { sub } = await this.plan(user.id);
    if (sub?.status === 'active') {
      if (sub.product_id === productId) throw new AppError('conflict', MSG_BILLING.alreadySubscribed);
      return this.changeSubscription(user, productId);
    }
    const pay = await this.d.provider.checkout({
      userId: user.id,
      email: user.email,
      customerId: user.stripe_customer_id,
      kind: 'subscription',
      product,
      quantity: 1,
      ...this.urls('subscription'),
    });
    if (pay) return { status: 'redirect', url: this.redirect(pay.url), invoiceId: null };
    // A double click on "buy" within the same minute is the same purchase.
    const invoiceId = await this.settleSubscription(
      user.id,
      product,
      `local:sub:${user.id}:${product.id}:${Math.floor(this.now().getTime() / 60_000)}`,
      null,
    );
    return { status: 'paid', url: null, invoiceId };
  }

  /** Upgrade: pay now, new term now, credits now. Downgrade: takes effect at the next cycle. */
  async changeSubscription(user: UserRow, productId: string): Promise<PurchaseAnswer> {
    const target = this.subscriptionProduct(productId);
    const { sub, product: current } = await this.plan(user.id);
    if (!sub || sub.status !== 'active') throw new AppError('conflict', MSG_BILLING.noSubscription);
    if (target.id === current.id) {
      if (sub.pending_product_id || sub.cancel_at_period_end)
        await this.d.repo.updateSubscription(user.id, { pending_product_id: null, cancel_at_period_end: false });
      if (sub.pending_product_id || sub.cancel_at_period_end) return { status: 'scheduled', url: null, invoiceId: null };
      throw new AppError('conflict', MSG_BILLING.alreadySubscribed);
    }
    if (target.price.unit_amount < current.price.unit_amount || target.id === this.d.catalog.freeTrial.id) {
      await this.d.provider.changeSubscription({ providerRef: sub.provider_ref, product: target, now: false });
      await this.d.repo.updateSubscription(user.id, { pending_product_id: target.id, cancel_at_period_end: false });
      return { status: 'scheduled', url: null, invoiceId: null };
    }
    await this.d.provider.changeSubscription({ providerRef: sub.provider_ref, product: target, now: true });
    const invoiceId = await this.settleSubscription(
      user.id,
      target,
      `change:${user.id}:${target.id}:${iso(sub.term_start)}`,
      sub.provider_ref,
    );
    return { status: 'paid', url: null, invoiceId };
  }

  /** Keeps the plan to the end of the term and reports that it will not renew. */
  async cancelAtPeriodEnd(userId: string) {
    const sub = await this.d.repo.subscription(userId);
    if (!sub || sub.status !== 'active') throw new AppError('conflict', MSG_BILLING.noSubscription);
    await this.d.repo.updateSubscription(userId, { cancel_at_period_end: true, pending_product_id: null });
  }

  /**
   * Renews every local subscription whose term has ended: applies a waiting downgrade, invoices,
   * grants the plan's credits, advances the term. Keys are derived from the new term, so running
   * it twice (or after a crash) grants once.
   */
  async renewDue() {
    let renewed = 0;
    for (const sub of await this.d.repo.dueSubscriptions(this.now())) {
      if (sub.provider !== 'local') continue; // Stripe renews through invoice.paid webhooks
      if (sub.cancel_at_period_end) {
        await this.d.repo.updateSubscription(sub.user_id, { status: 'ended' }, new Date(sub.term_end));
        continue;
      }
      const product = this.subscriptionProduct(sub.pending_product_id ?? sub.product_id);
      const start = new Date(sub.term_end);
      await this.termInvoice(
        sub.user_id,
        product,
        sub.provider,
        null,
        `renew:${sub.user_id}:${iso(start)}`,
        `${product.name} plan renewal`,
        start,
      );
      const moved = await this.d.repo.updateSubscription(
        sub.user_id,
        { product_id: product.id, pending_product_id: null, term_start: start, term_end: addMonth(start) },
        start,
      );
      if (moved) renewed++;
    }
    return renewed;
  }

  async portalUrl(user: UserRow) {
    return {
      url: this.redirect(
        await this.d.provider.portalUrl(
          { id: user.id, customerId: user.stripe_customer_id },
          `${this.d.appUrl()}${settingsPath('billing')}`,
        ),
      ),
    };
  }

  async invoiceUrl(user: UserRow, invoiceId: string) {
    const invoice = await this.d.repo.invoiceById(invoiceId);
    if (!invoice || invoice.user_id !== user.id) throw new AppError('not_found', 'Invoice not found');
    return { invoiceUrl: this.redirect(await this.d.provider.invoiceUrl(invoice)) };
  }

  /** Applies a verified Stripe event exactly once (a replay is acknowledged and ignored). */
  async applyStripeEvent(event: Stripe.Event): Promise<'applied' | 'duplicate' | 'ignored'> {
    if (!(await this.d.repo.claimEvent(event.id, event.type))) return 'duplicate';
    try {
      switch (event.type) {
        case 'checkout.session.completed': {
          const s = event.data.object;
          const meta = s.metadata ?? {};
          if (!meta.userId || !meta.productId) return 'ignored';
          if (typeof s.customer === 'string') await this.d.repo.setStripeCustomer(meta.userId, s.customer);
          if (meta.kind === 'one-time') {
            const product = this.d.catalog.oneTime.find((p) => p.id === meta.productId);
            if (!product) return 'ignored';
            await this.settleTopUp(
              meta.userId,
              product,
              Number(meta.quantity ?? 1) || 1,
              `stripe:${s.id}`,
              typeof s.payment_intent === 'string' ? s.payment_intent : null,
            );
          } else {
            await this.settleSubscription(
              meta.userId,
              this.subscriptionProduct(meta.productId),
              `stripe:${s.id}`,
              typeof s.subscription === 'string' ? s.subscription : null,
            );
          }
          return 'applied';
        }
        case 'invoice.paid': {
          const inv = event.data.object as Stripe.Invoice & { subscription?: string | null };
          if (inv.billing_reason !== 'subscription_cycle' || !inv.subscription) return 'ignored';
          const sub = await this.d.repo.subscriptionByRef(String(inv.subscription));
          if (!sub) return 'ignored';
          await this.settleSubscription(
            sub.user_id,
            this.subscriptionProduct(sub.pending_product_id ?? sub.product_id),
            `stripe:${inv.id}`,
            sub.provider_ref,
          );
          return 'applied';
        }
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted': {
          const s = event.data.object;
          const sub = await this.d.repo.subscriptionByRef(s.id);
          if (!sub) return 'ignored';
          if (event.type === 'customer.subscription.deleted') await this.d.repo.updateSubscription(sub.user_id, { status: 'ended' });
          else await this.d.repo.updateSubscription(sub.user_id, { cancel_at_period_end: !!s.cancel_at_period_end });
          return 'applied';
        }
        default:
          return 'ignored';
      }
    } catch (err) {
      // Not applied: let Stripe's retry deliver it again.
      await this.d.repo.forgetEvent(event.id);
      throw err;
    }
  }

  localPortalPaths() {
    return { cancel: API.localPortalCancel };
  }
}
