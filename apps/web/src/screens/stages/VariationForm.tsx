// Add variation: extra work on the accepted quote, proposed to the client as an agreement of its own
// (POST /variations). The quote they accepted stays as it is; the variation is sent to them from the
// list below and can be invoiced once they approve it. Description, qty and unit price as on the
// calculator's lines; GST at 15 % on top unless switched off; why, in a note.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { DocumentDetail, VariationInput } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { MoneyInput } from '../../ui/MoneyInput.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { money } from '../invoice-detail/view.ts';
import { addVariation } from './queries.ts';
import { variationBody } from './stages.ts';
import { applyDetailChange } from '../invoice-detail/queries.ts';

interface Props {
  doc: DocumentDetail;
  onDone: (text: string) => void;
  onCancel: () => void;
}

export function VariationForm({ doc, onDone, onCancel }: Props) {
  const id = useId();
  const queryClient = useQueryClient();
  const { keyFor, forget } = useIdempotencyKeys();
  const [description, setDescription] = useState('');
  const [qty, setQty] = useState('1');
  const [unitPrice, setUnitPrice] = useState('');
  const [gst, setGst] = useState(true);
  const [note, setNote] = useState('');

  const add = useCommand({
    run: (body: VariationInput) => addVariation(api, doc.id, body, keyFor('variation', body)),
    failed: 'Could not add the variation',
    onDone: (quote) => {
      forget('variation');
      applyDetailChange(queryClient, quote);
      const added = quote.variations.at(-1);
      onDone(added ? `${added.name} (${money(added.total)}) added: send it to the client for their approval` : 'Variation added');
    },
  });


  return (
    <form className="stages__form" onSubmit={add.submit(() => variationBody({ description, qty, unitPrice, gst, note }))} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="stages__form-title">
        Add variation
      </h3>
      <p className="field__hint stages__form-intro">Extra work the client agrees to apart: the quote they accepted stays as it is. Send it to them, and once they approve it you can invoice it.</p>
      <div className="stages__variation">
        <FormField id={`${id}-description`} label="Description" className="stages__variation-desc">
          {() => (
            <input
              id={`${id}-description`}
              className="input"
              type="text"
              required
              maxLength={500}
              autoCapitalize="sentences"
              placeholder="e.g. Extra downpipe"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </FormField>
        <FormField id={`${id}-qty`} label="Qty">
          {() => <input id={`${id}-qty`} className="input input--number" type="text" inputMode="decimal" required value={qty} onChange={(e) => setQty(e.target.value)} />}
        </FormField>
        <FormField id={`${id}-price`} label="Unit price">
          {() => <MoneyInput id={`${id}-price`} required value={unitPrice} onValueChange={setUnitPrice} />}
        </FormField>
      </div>
      <label className="choice stages__gst">
        <input type="checkbox" checked={gst} onChange={(e) => setGst(e.target.checked)} />
        <span>Add GST (15 %) on top</span>
      </label>
      <FormField id={`${id}-note`} label="Why (optional)" hint="The client reads this with the variation">
        {(describedBy) => (
          <textarea id={`${id}-note`} className="input" rows={2} maxLength={1000} aria-describedby={describedBy} value={note} onChange={(e) => setNote(e.target.value)} />
        )}
      </FormField>
      <ErrorAlert message={add.error} />
      <FormButtons className="detail-form__buttons" submit={add.pending ? 'Saving...' : 'Save variation'} busy={add.pending} onCancel={onCancel} />
    </form>
  );
}
