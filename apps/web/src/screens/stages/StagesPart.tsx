// The accepted quote's Stages card (docs/api/stages.md): how much of the quote is invoiced — a bar
// with the figures in words, net of credit notes on the stage invoices — the stage invoices so far
// (with what was credited of each), the buttons that invoice a deposit, a progress stage or the
// final invoice, or propose a variation, and the variations, each apart from the quote the client
// signed (VariationsList).
import './stages.css';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { DocumentDetail } from '@tradie/contracts';
import { Card } from '../../ui/Card.tsx';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { money } from '../invoice-detail/view.ts';
import { StageForm } from './StageForm.tsx';
import { canInvoiceStages, hasStages, invoicedShare, percentText, STAGE_KIND_LABELS, type StageKind, type Stages } from './stages.ts';
import { VariationForm } from './VariationForm.tsx';
import { VariationsList } from './VariationsList.tsx';

type Open = StageKind | 'variation' | null;

const BUTTONS: { open: Exclude<Open, null>; label: string }[] = [
  { open: 'deposit', label: 'Invoice deposit' },
  { open: 'progress', label: 'Progress invoice' },
  { open: 'final', label: 'Final invoice' },
  { open: 'variation', label: 'Add variation' },
];

/** The card, for a quote it applies to (nothing otherwise). */
export function StagesPart({ doc, show }: { doc: DocumentDetail; show: (text: string, tone?: NoticeTone) => void }) {
  return hasStages(doc) && doc.stages ? <StagesCard doc={doc} stages={doc.stages} show={show} /> : null;
}

function StagesCard({ doc, stages, show }: { doc: DocumentDetail; stages: Stages; show: (text: string, tone?: NoticeTone) => void }) {
  const [open, setOpen] = useState<Open>(null);
  const active = canInvoiceStages(doc);
  const nothingLeft = stages.remaining <= 0;
  const toggle = (o: Exclude<Open, null>) => setOpen((was) => (was === o ? null : o));

  return (
    <Card titleId="detail-stages-title" title="Stages" className="stages">
      <StagesBar stages={stages} />

      {stages.invoices.length === 0 ? (
        <p className="detail__empty stages__empty">Nothing invoiced yet. Start with a deposit or a progress invoice.</p>
      ) : (
        <ul className="stages__list" aria-label="Stage invoices">
          {stages.invoices.map((s) => (
            <li key={s.id}>
              <Link to="/app/invoices/$id" params={{ id: s.id }} className="stages__item">
                <span className="stages__item-main">
                  <span className="stages__ref">{s.reference}</span>
                  <span className="stages__kind">{STAGE_KIND_LABELS[s.kind]}</span>
                </span>
                <span className="stages__total">
                  {money(s.total)}
                  {s.credited > 0 && <span className="stages__credited"> {money(s.credited)} credited</span>}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      {active && (
        <>
          {nothingLeft && <p className="callout callout--success stages__note">All of the quote is invoiced. Add a variation to invoice extra work.</p>}
          <div className="action-grid stages__actions" role="group" aria-label="Invoice a stage">
            {BUTTONS.filter((b) => b.open === 'variation' || !nothingLeft).map((b) => (
              <button
                key={b.open}
                type="button"
                className={b.open === 'variation' ? 'button button--ghost' : 'button button--secondary'}
                aria-expanded={open === b.open}
                onClick={() => toggle(b.open)}
              >
                {b.label}
              </button>
            ))}
          </div>
          {open === 'variation' && (
            <VariationForm
              doc={doc}
              onDone={(text) => {
                setOpen(null);
                show(text);
              }}
              onCancel={() => setOpen(null)}
            />
          )}
          {open !== null && open !== 'variation' && !nothingLeft && <StageForm key={open} doc={doc} stages={stages} kind={open} onCancel={() => setOpen(null)} />}
        </>
      )}

      <VariationsList doc={doc} active={active} show={show} />
    </Card>
  );
}

/** The figures under the bar; the invoiced and remaining ones carry the bar's colour swatch. */
const AMOUNTS: readonly { figure: 'quoted' | 'invoiced' | 'remaining'; label: string; className?: string; swatch?: string }[] = [
  { figure: 'quoted', label: 'Quoted' },
  { figure: 'invoiced', label: 'Invoiced', className: 'stages__amount--invoiced', swatch: 'stages__swatch stages__swatch--invoiced' },
  { figure: 'remaining', label: 'Remaining', swatch: 'stages__swatch' },
];

/** Quoted / Invoiced / Remaining: a bar drawn for the eye, and the same figures as text for everyone. */
export function StagesBar({ stages }: { stages: Pick<Stages, 'quoted' | 'invoiced' | 'remaining'> }) {
  const share = invoicedShare(stages);
  return (
    <div className="stages__figures">
      <div className="stages__bar" aria-hidden="true" data-testid="stages-bar">
        <span className="stages__bar-fill" style={{ width: `${share}%` }} />
      </div>
      <p className="stages__share">{percentText(share)} of the quote invoiced</p>
      <dl className="stages__amounts">
        {AMOUNTS.map(({ figure, label, className, swatch }) => (
          <div key={figure} className={className}>
            <dt>
              {swatch && <span className={swatch} aria-hidden="true" />}
              {label}
            </dt>
            <dd data-testid={`stages-${figure}`}>{money(stages[figure])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
