import {
  API,
  USAGE_HISTORY_PAGE,
  type BillingInfo,
  type OneTimeProduct,
  type OneTimePurchaseBody,
  type ProductBody,
  type PurchaseAnswer,
  type SubscriptionProduct,
  type UsageHistoryEntry,
  type UsageHistoryQuery,
} from '../../contract';
import type { ApiClient } from './client';

/** Typed billing calls (accounts spec section 7). The catalogue is public; the rest needs a session. */
export function createBillingApi(client: ApiClient) {
  const get = <T>(path: string, query?: Record<string, string | number | undefined>, signal?: AbortSignal) =>
    client.request<T>(path, { method: 'GET', auth: 'required', query, signal });
  const post = <T>(path: string, body: object) => client.request<T>(path, { method: 'POST', body, auth: 'required' });

  return {
    info: (signal?: AbortSignal) => get<BillingInfo>(API.billingInfo, undefined, signal),
    usageHistory: (olderThan?: string) =>
      get<UsageHistoryEntry[]>(API.usageHistory, { limit: USAGE_HISTORY_PAGE, olderThan } satisfies UsageHistoryQuery),
    subscriptions: () => client.request<SubscriptionProduct[]>(API.subscriptionsAvailable, { method: 'GET', auth: 'none' }),
    oneTime: () => client.request<OneTimeProduct[]>(API.oneTimeAvailable, { method: 'GET', auth: 'none' }),
    buyTopUp: (quantity: number) => post<PurchaseAnswer>(API.oneTimePurchase, { quantity } satisfies OneTimePurchaseBody),
    buySubscription: (productId: string) => post<PurchaseAnswer>(API.subscriptionPurchase, { productId } satisfies ProductBody),
    changeSubscription: (productId: string) => post<PurchaseAnswer>(API.subscriptionChange, { productId } satisfies ProductBody),
    portal: () => get<{ url: string }>(API.billingPortal),
    invoiceUrl: (invoiceId: string) => get<{ invoiceUrl: string }>(API.invoiceUrl(invoiceId)),
  };
}

export type BillingApi = ReturnType<typeof createBillingApi>;
