// The invoice detail's Payment claim part (Construction Contracts Act 2002): make a draft invoice a
// claim and fill in what the Act needs (the list of what is missing shows until sending can go), the
// claimed amount and dates, how the amount was calculated, and after service the payer's payment
// schedule and the retention held. Every figure is the server's (GET /invoices/{id}/payment-claim).
import './payment-claims.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { DocumentDetail, PaymentClaimRecord } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { money } from '../invoice-detail/view.ts';
import { useCommand } from '../shared/command.ts';
import { type ClaimFields, MISSING_FIELD, claimBody, dueChoiceProblem, fieldsOf, longDate } from './claimForm.ts';
import { claimChanged, clearPaymentClaim, paymentClaimQuery, recordSchedule, releaseRetention, savePaymentClaim } from './queries.ts';

/** Shown on an invoice that is not void: a draft can become a claim; an issued one shows its claim if it is one. */
export function PaymentClaimPart({ doc }: { doc: DocumentDetail }) {
  if (doc.type !== 'invoice' || doc.status === 'void') return null;
  if (!doc.is_payment_claim && doc.status !== 'draft') return null;
  return <PaymentClaimCard doc={doc} />;
}

function PaymentClaimCard({ doc }: { doc: DocumentDetail }) {
  const query = useQuery(paymentClaimQuery(api, doc.id));
  const [opening, setOpening] = useState(false);
  const claim = query.data;
  return (
    <Card titleId="detail-claim-title" title="Payment claim" className="claim-card" data-testid="payment-claim">
      {query.isPending && <p className="muted">Loading…</p>}
      <ErrorAlert message={query.isError && (errorDetail(query.error) ?? 'Could not load the payment claim')} />
      {claim && !claim.active && !opening && (
        <>
          <p className="claim-card__intro">Make this invoice a payment claim under the Construction Contracts Act 2002: it then carries the claim, how the amount was worked out and the notice the Act requires.</p>
          <button type="button" className="button button--ghost" onClick={() => setOpening(true)}>
            Make it a payment claim
          </button>
        </>
      )}
      {claim && (claim.active || opening) && claim.editable && <ClaimEditor doc={doc} claim={claim} onCancel={() => setOpening(false)} />}
      {claim && claim.active && <ClaimSummary claim={claim} />}
      {claim && claim.active && !claim.editable && <AfterService doc={doc} claim={claim} />}
    </Card>
  );
}

function ClaimEditor({ doc, claim, onCancel }: { doc: DocumentDetail; claim: PaymentClaimRecord; onCancel: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const question = claim.due_date_question;
  const [f, setF] = useState<ClaimFields>(() => fieldsOf(claim.details, question));
  const save = useCommand({
    run: () => savePaymentClaim(api, doc.id, claimBody(f, undefined)),
    failed: 'Could not save the payment claim',
    onDone: (record) => claimChanged(queryClient, doc.id, record),
  });
  const clear = useCommand({
    run: () => clearPaymentClaim(api, doc.id),
    failed: 'Could not save the payment claim',
    onDone: (record) => {
      onCancel();
      return claimChanged(queryClient, doc.id, record);
    },
  });
  const missing = new Set(claim.active ? claim.missing.map((m) => MISSING_FIELD[m.field]).filter(Boolean) : []);
  const text = (key: keyof ClaimFields, label: string, extra: { hint?: string; type?: string; wide?: boolean; inputMode?: 'decimal' | 'numeric' } = {}) => (
    <FormField id={`${id}-${key}`} label={label} hint={extra.hint} wide={extra.wide}>
      {(describedBy) => (
        <input
          id={`${id}-${key}`}
          className="input"
          type={extra.type ?? 'text'}
          inputMode={extra.inputMode}
          value={f[key]}
          aria-describedby={describedBy}
          aria-invalid={missing.has(key) || undefined}
          onChange={(e) => setF({ ...f, [key]: e.target.value })}
        />
      )}
    </FormField>
  );
  // Which due date applies is the tradie's to say, before anything is saved.
  const submit = save.submit(() => {
    const wrong = dueChoiceProblem(f, question);
    return wrong ? { ok: false, error: wrong } : { ok: true, body: undefined };
  });
  const choose = (due: ClaimFields['due']) => {
    setF({ ...f, due });
    save.clearInvalid();
  };
  return (
    <form className="claim-form" onSubmit={submit} aria-label="Payment claim details">
      {claim.active && claim.missing.length > 0 && (
        <div className="callout callout--warning" role="status" data-testid="claim-missing">
          <p className="claim-form__missing-title">Before you can send this claim, add:</p>
          <ul>
            {claim.missing.map((m) => (
              <li key={m.field}>{m.message}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="form-grid">
        {text('contract_reference', 'Construction contract', { hint: 'Its reference or name, as the client knows it', wide: true })}
        {text('contract_date', 'Contract date', { type: 'date' })}
        {text('site', 'Site address', { wide: true })}
        <FormField id={`${id}-work`} label="Construction work this claim is for" wide>
          {(describedBy) => (
            <textarea id={`${id}-work`} className="input" rows={3} value={f.work} aria-describedby={describedBy} aria-invalid={missing.has('work') || undefined} onChange={(e) => setF({ ...f, work: e.target.value })} />
          )}
        </FormField>
        {text('period_from', 'Claim period from', { type: 'date' })}
        {text('period_to', 'Claim period to', { type: 'date' })}
        {text('retention_percent', 'Retention withheld (%)', { inputMode: 'decimal', hint: 'Commercial contracts only; leave blank for none' })}
        {question ? (
          <fieldset className="choice-group claim-form__due" data-testid="claim-due-choice">
            <legend className="field__label">Due date for payment</legend>
            <p className="callout callout--warning" data-testid="claim-due-question">
              {question.text}
            </p>
            <label className="choice">
              <input type="radio" name={`${id}-due`} checked={f.due === 'invoice'} onChange={() => choose('invoice')} />
              <span>The invoice's own terms: {longDate(question.invoice_due)}</span>
            </label>
            <label className="choice">
              <input type="radio" name={`${id}-due`} checked={f.due === 'act'} onChange={() => choose('act')} />
              <span>The Act's default: {longDate(question.act_due)} (20 working days after the claim is sent)</span>
            </label>
            <label className="choice">
              <input type="radio" name={`${id}-due`} checked={f.due === 'contract'} onChange={() => choose('contract')} />
              <span>Another date the contract sets</span>
            </label>
            {f.due === 'contract' && text('payment_due_date', 'Due date the contract sets', { type: 'date' })}
          </fieldset>
        ) : (
          text('payment_due_date', 'Due date for payment', { type: 'date', hint: 'Only if the contract sets one; otherwise 20 working days after the claim is sent' })
        )}
        {text('schedule_working_days', 'Working days for a payment schedule', { inputMode: 'numeric', hint: 'Only if the contract sets them; otherwise 20' })}
      </div>
      <ErrorAlert message={save.error ?? clear.error} />
      <div className="claim-form__actions">
        <button type="submit" className="button button--primary" disabled={save.pending} aria-busy={save.pending}>
          {claim.active ? 'Save claim details' : 'Make it a payment claim'}
        </button>
        {claim.active ? (
          <button type="button" className="button button--ghost" onClick={() => clear.run()} disabled={clear.pending}>
            Not a payment claim
          </button>
        ) : (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function ClaimSummary({ claim }: { claim: PaymentClaimRecord }) {
  const c = claim.calculation;
  return (
    <div className="claim-summary">
      <p className="claim-summary__statement">{claim.statement}</p>
      <dl className="figures">
        <div className="figures__row figures__row--total">
          <dt>Claimed amount</dt>
          <dd data-testid="claim-claimed">{money(c.claimed)}</dd>
        </div>
        {c.retention > 0 && (
          <div className="figures__row">
            <dt>Retention withheld ({c.retention_percent} %)</dt>
            <dd>{money(c.retention)}</dd>
          </div>
        )}
        <div className="figures__row">
          <dt>Due for payment</dt>
          <dd data-testid="claim-due">{longDate(claim.payment_due)}</dd>
        </div>
        {claim.served_on && (
          <div className="figures__row">
            <dt>Served</dt>
            <dd>{longDate(claim.served_on)}</dd>
          </div>
        )}
      </dl>
      <p className="claim-summary__status" data-testid="claim-schedule-status">{claim.schedule_status}</p>
      <details className="claim-calc">
        <summary>How the claimed amount was calculated</summary>
        {/* Scrolls sideways inside itself on a narrow phone: focusable so it scrolls from the keyboard too. */}
        <div className="claim-calc__scroll" tabIndex={0} role="region" aria-label="Calculation by line">
          <table className="claim-calc__table">
            <thead>
              <tr>
                <th scope="col">Work</th>
                <th scope="col">Value</th>
                <th scope="col">% to date</th>
                <th scope="col">Before</th>
                <th scope="col">This claim</th>
              </tr>
            </thead>
            <tbody>
              {c.lines.map((l, i) => (
                <tr key={i}>
                  <th scope="row">{l.variation ? `${l.description} (variation)` : l.description}</th>
                  <td>{money(l.value)}</td>
                  <td>{l.percent_to_date === null ? '' : `${l.percent_to_date} %`}</td>
                  <td>{money(l.previous)}</td>
                  <td>{money(l.this_claim)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <dl className="figures">
          {[
            ['Contract sum', c.contract_sum],
            ['Variations', c.variations],
            ['Value of work to date', c.to_date],
            ['Previously claimed', c.previously_claimed],
            ['This claim', c.this_claim],
            [`Retention withheld (${c.retention_percent} %)`, c.retention],
          ].map(([label, value]) => (
            <div className="figures__row" key={label as string}>
              <dt>{label}</dt>
              <dd>{money(value as number)}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}

const today = (): string => new Date().toLocaleDateString('en-CA', { timeZone: 'Pacific/Auckland' });

function AfterService({ doc, claim }: { doc: DocumentDetail; claim: PaymentClaimRecord }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<'schedule' | 'release' | null>(null);
  const [received, setReceived] = useState(today);
  const [amount, setAmount] = useState('');
  const [reasons, setReasons] = useState('');
  const [releaseAmount, setReleaseAmount] = useState('');
  const [releaseDate, setReleaseDate] = useState(today);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const done = (record: PaymentClaimRecord) => {
    setForm(null);
    setKey(crypto.randomUUID());
    return claimChanged(queryClient, doc.id, record);
  };
  const schedule = useCommand({ run: () => recordSchedule(api, doc.id, { received_on: received, scheduled_amount: amount, reasons }, key), failed: 'Could not record the payment schedule', onDone: done });
  const release = useCommand({ run: () => releaseRetention(api, doc.id, { amount: releaseAmount, date: releaseDate }, key), failed: 'Could not record the release', onDone: done });
  return (
    <div className="claim-after">
      {claim.schedule && claim.schedule.reasons !== '' && <p className="claim-after__reasons">Their reasons: {claim.schedule.reasons}</p>}
      {claim.retention_held > 0 && (
        <p data-testid="claim-retention-held">
          Retention held: <strong>{money(claim.retention_held)}</strong> — owed to you until released.
        </p>
      )}
      <div className="claim-form__actions">
        <button type="button" className="button button--ghost" onClick={() => setForm(form === 'schedule' ? null : 'schedule')} aria-expanded={form === 'schedule'}>
          Record payment schedule
        </button>
        {claim.retention_held > 0 && (
          <button type="button" className="button button--ghost" onClick={() => setForm(form === 'release' ? null : 'release')} aria-expanded={form === 'release'}>
            Retention released
          </button>
        )}
      </div>
      {form === 'schedule' && (
        <form className="claim-form" aria-label="Payment schedule received" onSubmit={(e) => (e.preventDefault(), schedule.run())}>
          <div className="form-grid">
            <FormField id={`${id}-received`} label="Received on">
              {() => <input id={`${id}-received`} className="input" type="date" required value={received} onChange={(e) => setReceived(e.target.value)} />}
            </FormField>
            <FormField id={`${id}-scheduled`} label="Scheduled amount ($)">
              {() => <input id={`${id}-scheduled`} className="input input--number" inputMode="decimal" required value={amount} onChange={(e) => setAmount(e.target.value)} />}
            </FormField>
            <FormField id={`${id}-reasons`} label="Their reasons (if less than claimed)" wide>
              {() => <textarea id={`${id}-reasons`} className="input" rows={2} value={reasons} onChange={(e) => setReasons(e.target.value)} />}
            </FormField>
          </div>
          <ErrorAlert message={schedule.error} />
          <button type="submit" className="button button--primary" disabled={schedule.pending} aria-busy={schedule.pending}>
            Save payment schedule
          </button>
        </form>
      )}
      {form === 'release' && (
        <form className="claim-form" aria-label="Retention released" onSubmit={(e) => (e.preventDefault(), release.run())}>
          <div className="form-grid">
            <FormField id={`${id}-release-amount`} label="Amount released ($)">
              {() => <input id={`${id}-release-amount`} className="input input--number" inputMode="decimal" required value={releaseAmount} onChange={(e) => setReleaseAmount(e.target.value)} />}
            </FormField>
            <FormField id={`${id}-release-date`} label="Released on">
              {() => <input id={`${id}-release-date`} className="input" type="date" required value={releaseDate} onChange={(e) => setReleaseDate(e.target.value)} />}
            </FormField>
          </div>
          <ErrorAlert message={release.error} />
          <button type="submit" className="button button--primary" disabled={release.pending} aria-busy={release.pending}>
            Save release
          </button>
        </form>
      )}
    </div>
  );
}
