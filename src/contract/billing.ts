import type { CreditNote } from './credits';
import { ONE_DAY_MS } from './constants';

/** Billing entities, messages and helpers (accounts spec sections 2, 3, 4, 7, 8, 9). */
export interface Price {
  id: string;
  /** Minor units (cents). */
  unit_amount: number;
  currency: string;
  interval: 'month' | 'year' | null;
  interval_count: number;
}

/** A product of the catalogue (spec: subscriptions and one-time top-ups have the same shape). */
interface Product {
  id: string;
  name: string;
  tagline: string;
  /** Markdown. */
  description: string;
  images: string[];
  price: Price;
  quota: { credits: number; creditsLifetimeDays: number; storageHours: number };
}

export type SubscriptionProduct = Product;
export type OneTimeProduct = Product;

/** A credit note as the billing tab lists it, with its invoice when it came from a purchase. */
export interface BillingCreditNote extends CreditNote {
  invoiceNumber: string | null;
  invoiceName: string;
}

export interface BillingInfo {
  creditsLeft: number;
  creditNotes: BillingCreditNote[];
  limits: { storageHours: number };
  usage: { storageHours: number };
  subscription: {
    /** 'active' renews on the next cycle; null means it will not renew (or there is none). */
    status: 'active' | null;
    termEnd: string | null;
    product: SubscriptionProduct;
    /** A downgrade waiting for the next cycle. */
    pendingProduct: SubscriptionProduct | null;
  };
  /**
   * Charges on their way: the account's media being indexed (charged when indexing ends) and
   * renders being made without a watermark (charged when they are ready). While any are, the app
   * refetches this info every few seconds, so the balance it shows follows each charge.
   */
  pendingCharges: number;
}

export interface UsageHistoryEntry {
  _id: string;
  updatedAt: string;
  kind: 'grant' | 'charge';
  amount: number;
  reason: string;
}

/** What a purchase call answers: settled at once (local provider) or a checkout page to open. */
export interface PurchaseAnswer {
  status: 'paid' | 'scheduled' | 'redirect';
  url: string | null;
  invoiceId: string | null;
}

export const FREE_TRIAL_PRODUCT_ID = 'free-trial';
export const USAGE_HISTORY_PAGE = 10;
export const INVOICE_ROW_HEIGHT = 60;
export const INVOICE_LIST_HEIGHT = 400;
export const YEARLY_BILLING_ENABLED = false;

export const MSG_BILLING = {
  willNotRenew: 'Your subscription will NOT renew on the next billing cycle.',
  signupBonus: 'Signup Bonus',
  withinTheDay: 'within the day',
  youHaveThis: 'You have this subscription.',
  createAccount: 'Create an account',
  upgrade: 'Upgrade',
  downgrade: 'Downgrade',
  upgradePlan: 'Upgrade plan',
  cancelSubscription: 'Cancel your subscription',
  manageInvoices: 'Manage your invoices',
  yearlyComingSoon: 'coming soon',
  redirectBlocked: 'This link leads outside the allowed sites and was blocked.',
  noSuchProduct: 'This product is not available.',
  alreadySubscribed: 'You already have this subscription.',
  noSubscription: 'You have no subscription to change: buy one first.',
  freeTrialNotPurchasable: 'The Free Trial needs no purchase.',
} as const;

/** USD shows as $; any other currency shows its code. */
export function formatPrice(unitAmount: number, currency: string): string {
  const amount = (unitAmount / 100).toFixed(unitAmount % 100 === 0 ? 0 : 2);
  return currency.toLowerCase() === 'usd' ? `$${amount}` : `${amount} ${currency.toUpperCase()}`;
}

/** 'within the day' under one day, otherwise N days. */
export function expiryLabel(expiresAt: string | null, now = Date.now()): string | null {
  if (!expiresAt) return null;
  const ms = new Date(expiresAt).getTime() - now;
  if (ms < ONE_DAY_MS) return MSG_BILLING.withinTheDay;
  const days = Math.floor(ms / ONE_DAY_MS);
  return `${days} day${days === 1 ? '' : 's'}`;
}

/** The plan button: Downgrade when the target is cheaper than the current plan, else Upgrade. */
export function planButtonLabel(target: SubscriptionProduct, current: SubscriptionProduct | null, signedIn: boolean): string {
  if (!signedIn) return MSG_BILLING.createAccount;
  if (current && current.id === target.id) return MSG_BILLING.youHaveThis;
  if (current && target.price.unit_amount < current.price.unit_amount) return MSG_BILLING.downgrade;
  return MSG_BILLING.upgrade;
}

export interface InvoiceRow {
  id: string;
  invoiceName: string;
  invoiceNumber: string | null;
  creditsObtained: number;
  creditsUsed: number;
  transactionDate: string;
  expiryDate: string | null;
  type: string;
}

/** An invoice-list row from a credit note (creditsUsed = original minus current amount). */
export const toInvoiceRow = (n: BillingCreditNote): InvoiceRow => ({
  id: n._id,
  invoiceName: n.origin === 'signup' ? MSG_BILLING.signupBonus : n.invoiceName,
  invoiceNumber: n.invoiceNumber,
  creditsObtained: n.credits.originalAmount,
  creditsUsed: n.credits.originalAmount - n.credits.currentAmount,
  transactionDate: n.createdAt,
  expiryDate: n.expiresAt,
  type: n.origin,
});

/** Redirects go only to allow-listed hosts (and the app's own origin). */
export function isAllowedRedirect(url: string, allowedHosts: readonly string[], appOrigin?: string): boolean {
  let u: URL;
  try {
    u = new URL(url, appOrigin);
  } catch {
    return false;
  }
  if (appOrigin && u.origin === new URL(appOrigin).origin) return true;
  if (u.protocol !== 'https:') return false;
  return allowedHosts.some((h) => u.hostname === h || (h.startsWith('*.') && u.hostname.endsWith(h.slice(1))));
}

/** Spec wording (accounts section 2) that MSG_BILLING does not carry: the credits dropdown's link. */
export const MSG_BILLING_LINKS = {
  billingHistory: 'Billing & Credits History',
} as const;

/** Top-up quantities a purchase accepts (1 to this); the pricing page's picker uses the same bounds. */
export const TOP_UP_MAX_QUANTITY = 100;
