// The variations of a quote the client accepted, on its page (/q/{token}): each is extra work of its
// own, apart from the quote they accepted (which does not change). A variation waiting for them is
// approved like a quote — their full name and an optional finger signature — or declined, with a
// note if they like. Each answer sends once, however many times it is tapped.
import { useRef, useState } from 'react';
import { CLIENT_LINK_MESSAGES, SIGNATURE_MAX_CHARS, type PublicQuotePage, type PublicVariation } from '@tradie/contracts';
import { errorDetail, isApiError } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { FigureRow } from '../../ui/FigureRow.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { LineItemsList } from '../shared/LineItemsList.tsx';
import { nzLongDate } from './parts.tsx';
import { approvePublicVariation, declinePublicVariation, type PublicApi } from './queries.ts';
import { SignatureField, type SignatureHandle } from './SignatureField.tsx';

interface Props {
  api: PublicApi;
  token: string;
  page: PublicQuotePage;
  onAnswered: (page: PublicQuotePage) => void;
  /** The variation changed under the client (409): load the page again. */
  onStale: () => void;
}

const CHIP: Record<PublicVariation['status'], string> = {
  awaiting_approval: 'chip chip--warning',
  approved: 'chip chip--success',
  declined: 'chip chip--danger',
  withdrawn: 'chip chip--muted',
};

export function ClientVariations(props: Props) {
  const { page } = props;
  if (page.variations.length === 0) return null;
  return (
    <section className="client-variations" aria-labelledby="client-variations-title">
      <h2 id="client-variations-title" className="client-variations__title">
        Variations
      </h2>
      <p className="client-variations__intro">Extra work on top of the quote you accepted. Each is added only if you approve it; the quote itself stays as it is.</p>
      {page.summary && (
        <p className="callout client-variations__summary" data-testid="variations-summary">
          {page.summary}
        </p>
      )}
      {page.variations.map((v) => (
        <VariationCard key={v.id} {...props} v={v} />
      ))}
    </section>
  );
}

function VariationCard({ v, ...props }: Props & { v: PublicVariation }) {
  const [open, setOpen] = useState<'none' | 'approve' | 'decline'>('none');
  const titleId = `client-variation-${v.id}-title`;
  return (
    <Card titleId={titleId} title={`${v.name} · ${v.formatted.total}`} className="client-card client-variation">
      <p className="client-variation__status" data-testid={`client-variation-status-${v.id}`}>
        <span className={CHIP[v.status]}>{v.status_label}</span>
        {v.acceptance && (
          <span>
            {v.acceptance.signer_name ? ` by ${v.acceptance.signer_name}` : ''} on {nzLongDate(v.acceptance.accepted_at)}
            {v.acceptance.signed ? ' (signed)' : ''}
          </span>
        )}
        {v.status === 'declined' && v.declined_at && <span> on {nzLongDate(v.declined_at)}</span>}
      </p>
      {v.note && <p className="client-notes">{v.note}</p>}
      <LineItemsList lines={v.line_items} />
      <dl className="figures client-figures">
        <FigureRow label="Subtotal" value={v.formatted.subtotal} />
        <FigureRow label="GST" value={v.formatted.gst} />
        <FigureRow label={v.gst === 0 ? 'Total' : 'Total incl. GST'} value={v.formatted.total} total />
      </dl>
      {v.status === 'awaiting_approval' && open === 'none' && (
        <div className="client-other__buttons">
          <button type="button" className="button button--accent" onClick={() => setOpen('approve')}>
            Approve {v.name}
          </button>
          <button type="button" className="button button--secondary" onClick={() => setOpen('decline')}>
            Decline
          </button>
        </div>
      )}
      {v.status === 'awaiting_approval' && open === 'approve' && <ApproveForm {...props} v={v} onCancel={() => setOpen('none')} />}
      {v.status === 'awaiting_approval' && open === 'decline' && <DeclineForm {...props} v={v} onCancel={() => setOpen('none')} />}
    </Card>
  );
}

function ApproveForm({ api, token, onAnswered, onStale, v, onCancel }: Props & { v: PublicVariation; onCancel: () => void }) {
  const [name, setName] = useState('');
  const signature = useRef<SignatureHandle>(null);
  const prefix = `client-variation-${v.id}`;
  const approve = useCommand({
    run: (body: Parameters<typeof approvePublicVariation>[3]) => approvePublicVariation(api, token, v.id, body),
    failed: `Could not approve ${v.name}. Please try again.`,
    onDone: (answered) => onAnswered(answered),
    onFailed: (_message, err) => {
      if (isApiError(err) && err.status === 409) onStale();
    },
  });
  const { pending } = approve;
  const stale = isApiError(approve.failure) && approve.failure.status === 409;
  const error: { field: 'name' | 'form'; text: string } | null =
    approve.invalid === CLIENT_LINK_MESSAGES.nameRequired ? { field: 'name', text: approve.invalid }
    : approve.error ? { field: 'form', text: stale && errorDetail(approve.failure) === undefined ? CLIENT_LINK_MESSAGES.variationChanged : approve.error }
    : null;

  const submit = approve.submit(() => {
    if (name.trim() === '') return { ok: false, error: CLIENT_LINK_MESSAGES.nameRequired };
    const png = signature.current?.read() ?? null;
    if (png !== null && png.length > SIGNATURE_MAX_CHARS) return { ok: false, error: CLIENT_LINK_MESSAGES.signatureTooLarge };
    return { ok: true, body: { signer_name: name.trim(), signature_png: png, shown_sha256: v.shown_sha256 } };
  });

  return (
    <form className="client-subform" onSubmit={submit} noValidate aria-label={`Approve ${v.name}`}>
      <FormField id={`${prefix}-name`} label="Your full name">
        {() => (
          <input
            id={`${prefix}-name`}
            className="input"
            type="text"
            autoComplete="name"
            autoCapitalize="words"
            enterKeyHint="done"
            maxLength={120}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (error?.field === 'name') approve.clearInvalid();
            }}
            aria-invalid={error?.field === 'name' || undefined}
            aria-describedby={error?.field === 'name' ? `${prefix}-error` : undefined}
          />
        )}
      </FormField>
      <SignatureField ref={signature} disabled={pending} idPrefix={`${prefix}-signature`} />
      <ErrorAlert id={`${prefix}-error`} message={error?.text} />
      <FormButtons className="client-subform__buttons" submit={pending ? 'Approving...' : `Approve ${v.name} (${v.formatted.total})`} busy={pending} onCancel={onCancel} cancelWhileBusy />
    </form>
  );
}

function DeclineForm({ api, token, onAnswered, v, onCancel }: Props & { v: PublicVariation; onCancel: () => void }) {
  const [note, setNote] = useState('');
  const decline = useCommand({
    run: (body: { note: string }) => declinePublicVariation(api, token, v.id, body),
    failed: `Could not decline ${v.name}. Please try again.`,
    onDone: (answered) => onAnswered(answered),
  });
  const { pending, error } = decline;
  const submit = decline.submit(() => ({ ok: true, body: { note: note.trim() } }));
  return (
    <form className="client-subform" onSubmit={submit} noValidate aria-label={`Decline ${v.name}`}>
      <FormField id={`client-variation-${v.id}-note`} label="Anything to tell them? (optional)">
        {() => <textarea id={`client-variation-${v.id}-note`} className="input client-textarea" rows={3} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />}
      </FormField>
      <ErrorAlert message={error} />
      <FormButtons className="client-subform__buttons" submit={pending ? 'Sending...' : `Decline ${v.name}`} busy={pending} onCancel={onCancel} cancelWhileBusy danger />
    </form>
  );
}
