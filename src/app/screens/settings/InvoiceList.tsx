import { useMemo } from 'react';
import { INVOICE_LIST_HEIGHT, INVOICE_ROW_HEIGHT, toInvoiceRow, type BillingCreditNote, type InvoiceRow } from '../../../contract';
import { billingApi } from '../../api/instance';
import { formatCredits, formatDate } from '../../state/billingFigures';
import { IconExternal } from '../../ui/icons';
import { VirtualList } from '../../ui/VirtualList';
import { openExternal } from '../../billing/billingActions';

/** Opens an invoice in a new tab; a failure is only logged (spec section 7). */
function openInvoice(invoiceId: string) {
  void openExternal(
    async () => (await billingApi.invoiceUrl(invoiceId)).invoiceUrl,
    (e) => console.warn('Could not open the invoice', e),
  );
}

function Cells({ row }: { row: InvoiceRow }) {
  return (
    <>
      <span className="invoice-row__date">{formatDate(row.transactionDate)}</span>
      <span className="invoice-row__name">
        {row.invoiceName}
        {row.invoiceNumber && <span className="invoice-row__number">{row.invoiceNumber}</span>}
      </span>
      <span className="invoice-row__num">+{formatCredits(row.creditsObtained)}</span>
      <span className="invoice-row__num invoice-row__used">{formatCredits(row.creditsUsed)}</span>
      <span className="invoice-row__expiry">{row.expiryDate ? formatDate(row.expiryDate) : '—'}</span>
      <span className="invoice-row__open">{row.invoiceNumber !== null && <IconExternal size={16} />}</span>
    </>
  );
}

/**
 * Credits obtained, newest first, one row per credit note; rows that came from a purchase open
 * their invoice. The list mounts only the rows in view (row 60 px, list 400 px, spec section 9).
 */
export function InvoiceList({ notes }: { notes: readonly BillingCreditNote[] }) {
  const rows = useMemo(
    () =>
      notes
        .map((n) => ({ row: toInvoiceRow(n), invoiceId: n.invoiceId }))
        .sort((a, b) => new Date(b.row.transactionDate).getTime() - new Date(a.row.transactionDate).getTime()),
    [notes],
  );
  if (!rows.length) return <p className="muted billing-empty">No credits obtained yet.</p>;

  return (
    <div className="invoice-list">
      <div className="invoice-row invoice-row--head" aria-hidden="true">
        <span>Date</span>
        <span>Item</span>
        <span className="invoice-row__num">Credits</span>
        <span className="invoice-row__num">Used</span>
        <span>Expires</span>
        <span />
      </div>
      <VirtualList
        count={rows.length}
        rowHeight={INVOICE_ROW_HEIGHT}
        maxHeight={INVOICE_LIST_HEIGHT}
        label="Invoices"
        renderRow={(i) => {
          const { row, invoiceId } = rows[i]!;
          const summary = `${row.invoiceName}, ${formatCredits(row.creditsObtained)} credits, ${formatDate(row.transactionDate)}`;
          return (
            <div key={row.id} role="listitem" style={{ height: INVOICE_ROW_HEIGHT }}>
              {invoiceId ? (
                <button
                  type="button"
                  className="invoice-row invoice-row--link"
                  aria-label={`Open invoice ${row.invoiceNumber ?? ''}: ${summary}`}
                  onClick={() => openInvoice(invoiceId)}
                >
                  <Cells row={row} />
                </button>
              ) : (
                <div className="invoice-row">
                  <Cells row={row} />
                </div>
              )}
            </div>
          );
        }}
      />
    </div>
  );
}
