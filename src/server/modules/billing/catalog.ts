import fs from 'node:fs';
import { FREE_TRIAL_PRODUCT_ID, MSG, type OneTimeProduct, type SubscriptionProduct } from '../../../contract';

export interface Catalog {
  freeTrial: SubscriptionProduct;
  subscriptions: SubscriptionProduct[];
  oneTime: OneTimeProduct[];
}

const month = (id: string, cents: number) => ({ id, unit_amount: cents, currency: 'usd', interval: 'month' as const, interval_count: 1 });

/** The embedded catalogue; BILLING_PRODUCTS_FILE (same JSON shape) replaces it. */
export const DEFAULT_CATALOG: Catalog = {
  freeTrial: {
    id: FREE_TRIAL_PRODUCT_ID,
    name: MSG.freeTrial,
    tagline: 'Try Clipseek on your own videos.',
    description: '- Your signup bonus credits\n- 2 hours of storage\n- Search by what is seen and said',
    images: [],
    price: month('price_free_trial', 0),
    quota: { credits: 0, creditsLifetimeDays: 30, storageHours: 2 },
  },
  subscriptions: [
    {
      id: 'starter',
      name: 'Starter',
      tagline: 'For a personal archive.',
      description: '- 60,000 credits a month (6 hours of indexing)\n- 25 hours of storage\n- Watermark-free downloads with credits',
      images: [],
      price: month('price_starter_monthly', 1200),
      quota: { credits: 60_000, creditsLifetimeDays: 60, storageHours: 25 },
    },
    {
      id: 'pro',
      name: 'Pro',
      tagline: 'For creators who cut every week.',
      description: '- 250,000 credits a month (25 hours of indexing)\n- 100 hours of storage\n- Priority processing',
      images: [],
      price: month('price_pro_monthly', 3900),
      quota: { credits: 250_000, creditsLifetimeDays: 60, storageHours: 100 },
    },
    {
      id: 'studio',
      name: 'Studio',
      tagline: 'For teams with large libraries.',
      description: '- 750,000 credits a month (75 hours of indexing)\n- 400 hours of storage\n- Priority processing',
      images: [],
      price: month('price_studio_monthly', 9900),
      quota: { credits: 750_000, creditsLifetimeDays: 60, storageHours: 400 },
    },
  ],
  oneTime: [
    {
      id: 'top-up',
      name: 'Top-up',
      tagline: 'Credits and storage when you need them.',
      description: '- 50,000 credits (5 hours of indexing), valid for a year\n- 10 more hours of storage, kept',
      images: [],
      price: { id: 'price_top_up', unit_amount: 1000, currency: 'usd', interval: null, interval_count: 0 },
      quota: { credits: 50_000, creditsLifetimeDays: 365, storageHours: 10 },
    },
  ],
};

export function loadCatalog(file: string | null): Catalog {
  if (!file) return DEFAULT_CATALOG;
  let parsed: Catalog;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Catalog;
  } catch (err) {
    throw new Error(`BILLING_PRODUCTS_FILE ${file} could not be read: ${(err as Error).message}`);
  }
  for (const p of [parsed.freeTrial, ...(parsed.subscriptions ?? []), ...(parsed.oneTime ?? [])]) {
    if (!p?.id || !p.price || !p.quota || typeof p.price.unit_amount !== 'number')
      throw new Error(`BILLING_PRODUCTS_FILE: product ${p?.id ?? '?'} lacks id, price or quota`);
  }
  return parsed;
}
