import { API } from '../../../contract';
import type { InvoiceRow } from '../../modules/billing/billing.repository';
import type { TokenSigner } from '../security/tokens';
import type { PaymentProvider } from './paymentProvider';

/** The embedded provider: purchases settle at once; portal and invoice pages are served by this app. */
export class LocalPaymentProvider implements PaymentProvider {
  readonly kind = 'local' as const;
  constructor(
    private readonly tokens: TokenSigner,
    private readonly appUrl: () => string,
  ) {}

  async checkout() {
    return null;
  }

  async changeSubscription() {}

  /** A signed, 15-minute link to the local portal page of this user. */
  async portalUrl(user: { id: string }) {
    const exp = Math.floor(Date.now() / 1000) + 900;
    const sig = this.tokens.mac(`portal:${user.id}:${exp}`);
    return `${this.appUrl()}${API.localPortal}?u=${user.id}&exp=${exp}&sig=${sig}`;
  }

  verifyPortal(userId: string, exp: string, sig: string) {
    return this.tokens.mac(`portal:${userId}:${exp}`) === sig && Number(exp) * 1000 > Date.now();
  }

  async invoiceUrl(invoice: InvoiceRow) {
    return `${this.appUrl()}${API.localInvoice(invoice.id)}?sig=${this.tokens.mac(`invoice:${invoice.id}`)}`;
  }

  verifyInvoice(id: string, sig: string) {
    return this.tokens.mac(`invoice:${id}`) === sig;
  }
}
