import type { ReactNode } from 'react';
import { STATUS_LABELS, type DocumentStatus } from '@tradie/domain';

/** What a chip's colour says: done and good, on its way, needs a look, gone wrong, nothing yet. */
export type ChipTone = 'neutral' | 'brand' | 'success' | 'warning' | 'danger' | 'muted';

/** A small pill (styles/components.css, .chip). */
export function Chip({ tone = 'neutral', children, className }: { tone?: ChipTone; children: ReactNode; className?: string }) {
  const toneClass = tone === 'neutral' ? '' : ` chip--${tone}`;
  return <span className={`chip${toneClass}${className ? ` ${className}` : ''}`}>{children}</span>;
}

const STATUS_TONES: Record<DocumentStatus, ChipTone> = {
  draft: 'muted',
  issued: 'brand',
  sent: 'brand',
  accepted: 'success',
  converted: 'success',
  paid: 'success',
  partial: 'warning',
  expired: 'warning',
  overdue: 'danger',
  declined: 'danger',
  void: 'danger',
  deleted: 'muted',
};

/** The same colour for a status on every screen. */
export const statusTone = (status: string): ChipTone => (STATUS_TONES as Record<string, ChipTone>)[status] ?? 'neutral';

/** A quote's or invoice's status: the domain's label ('Draft', 'Sent', 'Partly paid', ...), coloured by status. */
export function StatusChip({ status }: { status: string }) {
  const label = (STATUS_LABELS as Record<string, string>)[status] ?? status;
  return <Chip tone={statusTone(status)}>{label}</Chip>;
}

/** Quote or invoice: a kind, not a state, so no colour of its own. */
/** 'Quote' or 'Invoice'; `label` names it more exactly where it is known ('Tax invoice'). */
export function TypeChip({ type, label }: { type: 'quote' | 'invoice'; label?: string }) {
  return <Chip tone="neutral">{label ?? (type === 'quote' ? 'Quote' : 'Invoice')}</Chip>;
}

/** The payment badge's words on the Invoices tab: '✓ Paid', 'Partial', otherwise 'Unpaid'. */
export function paymentBadge(status: string): { label: string; tone: 'paid' | 'partial' | 'unpaid' } {
  if (status === 'paid') return { label: '✓ Paid', tone: 'paid' };
  if (status === 'partial') return { label: 'Partial', tone: 'partial' };
  return { label: 'Unpaid', tone: 'unpaid' };
}

const PAYMENT_TONES = { paid: 'success', partial: 'warning', unpaid: 'muted' } as const satisfies Record<string, ChipTone>;

/** An invoice's payment badge, the same on the list, the detail and a client's history. */
export function PaymentBadge({ status }: { status: string }) {
  const badge = paymentBadge(status);
  return <Chip tone={PAYMENT_TONES[badge.tone]}>{badge.label}</Chip>;
}
