import { Type, type Static } from 'typebox';
import { TOP_UP_MAX_QUANTITY } from '../billing';
import { ExpiresAt, Signature, strict, Uuid } from './common';

/** GET API.usageHistory (accounts spec 7: pages of 10, at most 100). `olderThan` is an entry's `updatedAt`. */
export const usageHistoryQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    olderThan: Type.Optional(Type.String({ format: 'date-time' })),
  },
  strict,
);
export const oneTimePurchaseBodySchema = Type.Object({ quantity: Type.Integer({ minimum: 1, maximum: TOP_UP_MAX_QUANTITY }) });
export const productBodySchema = Type.Object({ productId: Type.String({ maxLength: 200 }) });

/**
 * The local provider's signed pages. Every part is optional: a link without its signature is
 * refused as not valid (403), like one with a wrong signature.
 */
export const localPortalQuerySchema = Type.Object(
  { u: Type.Optional(Uuid), exp: Type.Optional(ExpiresAt), sig: Type.Optional(Signature) },
  strict,
);
export const localInvoiceQuerySchema = Type.Object({ sig: Type.Optional(Signature) }, strict);

export type UsageHistoryQuery = Static<typeof usageHistoryQuerySchema>;
export type OneTimePurchaseBody = Static<typeof oneTimePurchaseBodySchema>;
export type ProductBody = Static<typeof productBodySchema>;
