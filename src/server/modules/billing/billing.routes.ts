import {
  API,
  formatPrice,
  idParams,
  localInvoiceQuerySchema,
  localPortalQuerySchema,
  MSG_BILLING,
  oneTimePurchaseBodySchema,
  productBodySchema,
  settingsPath,
  usageHistoryQuerySchema,
} from '../../../contract';
import type { App } from '../../http/types';
import type { AccountService } from '../accounts/account.service';
import type { BillingService } from './billing.service';
import { requireAuth, sessionOf } from '../../http/auth';
import { ok, reply } from '../../http/envelope';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// The portal's and invoices' pages name the app's icon, as its index.html does: without it the browser asks for /favicon.ico (a 404).
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)} · Clipseek</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>body{font-family:system-ui,sans-serif;background:#0b0c10;color:#e8e8ee;max-width:720px;margin:40px auto;padding:0 20px}a{color:#a78bfa}table{width:100%;border-collapse:collapse}td,th{padding:8px;border-bottom:1px solid #2a2b36;text-align:left}button{background:#ef4444;color:#fff;border:0;border-radius:8px;padding:10px 16px;font-weight:600;cursor:pointer}.muted{color:#9ca3af}</style></head><body>${body}</body></html>`;

/** Billing calls (accounts spec section 7) at their exact paths, plus the providers' own endpoints. */
export function billingRoutes(app: App, accounts: AccountService, billing: BillingService, appUrl: () => string) {
  const auth = { preHandler: requireAuth(accounts) };
  const user = (req: Parameters<typeof sessionOf>[0]) => sessionOf(req).user;

  app.get(API.billingInfo, auth, async (req, res) => reply(req, res, ok(await billing.info(user(req)))));
  app.get(API.usageHistory, { ...auth, schema: { querystring: usageHistoryQuerySchema } }, async (req, res) =>
    reply(req, res, ok(await billing.usageHistory(user(req), req.query.limit, req.query.olderThan))),
  );
  app.get(API.subscriptionsAvailable, async (req, res) => reply(req, res, ok(billing.catalog.subscriptions)));
  app.get(API.oneTimeAvailable, async (req, res) => reply(req, res, ok(billing.catalog.oneTime)));
  app.post(API.oneTimePurchase, { ...auth, schema: { body: oneTimePurchaseBodySchema } }, async (req, res) =>
    reply(req, res, ok(await billing.purchaseOneTime(user(req), req.body.quantity))),
  );
  app.post(API.subscriptionPurchase, { ...auth, schema: { body: productBodySchema } }, async (req, res) =>
    reply(req, res, ok(await billing.purchaseSubscription(user(req), req.body.productId))),
  );
  app.post(API.subscriptionChange, { ...auth, schema: { body: productBodySchema } }, async (req, res) =>
    reply(req, res, ok(await billing.changeSubscription(user(req), req.body.productId))),
  );
  app.get(API.billingPortal, auth, async (req, res) => reply(req, res, ok(await billing.portalUrl(user(req)))));
  app.get(API.invoiceUrl(':id'), { ...auth, schema: { params: idParams('id') } }, async (req, res) =>
    reply(req, res, ok(await billing.invoiceUrl(user(req), req.params.id))),
  );

  if (billing.providerKind === 'stripe') {
    // Stripe signs the exact bytes, so this route keeps the raw body.
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
      scope.post(API.stripeWebhook, async (req, res) => {
        const result = await billing.stripeWebhook(req.body as Buffer, String(req.headers['stripe-signature'] ?? ''));
        return reply(req, res, ok({ received: true, result }));
      });
    });
  }

  if (billing.providerKind === 'local') {
    app.get(API.localPortal, { schema: { querystring: localPortalQuerySchema } }, async (req, res) => {
      const { u = '', exp = '', sig = '' } = req.query;
      const { info, invoices } = await billing.portal(u, exp, sig);
      const rows = await Promise.all(
        invoices.map(
          async (i) =>
            `<tr><td><a href="${esc(i.url)}">CS-${i.number}</a></td><td>${esc(i.product_name)}${i.quantity > 1 ? ` × ${i.quantity}` : ''}</td><td>${esc(formatPrice(Number(i.amount), i.currency))}</td><td>${new Date(i.created_at).toISOString().slice(0, 10)}</td></tr>`,
        ),
      );
      const sub = info.subscription;
      const cancel =
        sub.status === 'active'
          ? `<form method="post" action="${API.localPortalCancel}?u=${u}&exp=${exp}&sig=${sig}"><p>Your ${esc(sub.product.name)} plan renews on ${sub.termEnd!.slice(0, 10)}.</p><button type="submit">Cancel subscription</button></form>`
          : sub.termEnd
            ? `<p>${esc(MSG_BILLING.willNotRenew)} Your ${esc(sub.product.name)} plan ends on ${sub.termEnd.slice(0, 10)}.</p>`
            : `<p>You are on the ${esc(sub.product.name)} plan.</p>`;
      return res
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Billing portal',
            `<h1>Billing portal</h1>${cancel}<h2>Invoices</h2><table><tr><th>Number</th><th>Item</th><th>Amount</th><th>Date</th></tr>${rows.join('') || '<tr><td colspan="4" class="muted">No invoices yet.</td></tr>'}</table><p><a href="${esc(appUrl() + settingsPath('billing'))}">Back to Clipseek</a></p>`,
          ),
        );
    });
    // The portal's cancel button is a plain HTML form: it posts url-encoded (empty) bodies.
    void app.register(async (scope: App) => {
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) =>
        done(null, {}),
      );
      scope.post(API.localPortalCancel, { schema: { querystring: localPortalQuerySchema } }, async (req, res) => {
        const { u = '', exp = '', sig = '' } = req.query;
        await billing.portalCancel(u, exp, sig);
        return res.redirect(`${API.localPortal}?u=${u}&exp=${exp}&sig=${sig}`, 303);
      });
    });
    app.get(API.localInvoice(':id'), { schema: { params: idParams('id'), querystring: localInvoiceQuerySchema } }, async (req, res) => {
      const { invoice: i, owner } = await billing.invoice(req.params.id, req.query.sig ?? '');
      return res
        .type('text/html; charset=utf-8')
        .send(
          page(
            `Invoice CS-${i.number}`,
            `<h1>Invoice CS-${i.number}</h1><p class="muted">Clipseek · ${new Date(i.created_at).toISOString().slice(0, 10)} · billed to ${esc(owner?.email ?? '')}</p><table><tr><th>Item</th><th>Qty</th><th>Credits</th><th>Amount</th></tr><tr><td>${esc(i.product_name)}</td><td>${i.quantity}</td><td>${Number(i.credits).toLocaleString('en-US')}</td><td>${esc(formatPrice(Number(i.amount), i.currency))}</td></tr></table><p>Paid.</p>`,
          ),
        );
    });
  }
}
