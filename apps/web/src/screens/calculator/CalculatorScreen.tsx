import './calculator.css';
import { useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useReducer, useState } from 'react';
import type { ClientRecord } from '@tradie/contracts';
import { appliedMarginNotice, formatNzd, GST_RATE_PERCENT, LOW_MARGIN_WARNING, MARGIN_HINT } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import type { Template, TemplateClientData } from '../../templates/templateStore.ts';
import { useTemplates, useTemplateStore } from '../../templates/useTemplates.ts';
import { PlusIcon } from '../../ui/icons.tsx';
import { clientPickerQuery, createDocument, generatePdf, invalidateDocuments, settingsQuery } from '../invoices/documents.ts';
import { useIdempotencyKeys } from '../invoices/idempotency.ts';
import { Notice, useNotice } from '../../ui/Toast.tsx';
import {
  calculatorFigures,
  calculatorReducer,
  initialCalculatorState,
  lineItemsToSend,
  marginOf,
  templateLineItems,
  type CalculatorState,
  type DocumentType,
} from './calculatorModel.ts';
import type { ClientChoice } from './clientChoice.ts';
import { ClientPicker } from './ClientPicker.tsx';
import { LineRow } from './LineRow.tsx';

const emptyNewClient: TemplateClientData = { name: '', email: '', phone: '' };
const NO_CLIENTS: readonly ClientRecord[] = [];

function startState(handover: Template | null): CalculatorState {
  const start = initialCalculatorState();
  return handover ? calculatorReducer(start, { type: 'loadTemplate', template: handover }) : start;
}

export function CalculatorScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const store = useTemplateStore();
  const templates = useTemplates(store);
  const { notice, show, clear } = useNotice();

  // A template handed over from the Templates tab is applied as the screen opens, then cleared.
  const [handover] = useState(() => store.peekHandOver());
  const [state, dispatch] = useReducer(calculatorReducer, handover, startState);
  const [choice, setChoice] = useState<ClientChoice>(handover?.clientData ? { kind: 'new' } : { kind: 'none' });
  const [newClient, setNewClient] = useState<TemplateClientData>(handover?.clientData ?? emptyNewClient);
  const [marginOpen, setMarginOpen] = useState(false);
  const [templateName, setTemplateName] = useState('');
  const [busy, setBusy] = useState(false);
  const [lastAdded, setLastAdded] = useState<number | null>(null);
  const { keyFor } = useIdempotencyKeys();

  useEffect(() => {
    if (!handover) return;
    store.clearHandOver();
    show(`Template "${handover.name}" loaded!`);
  }, [handover, store, show]);

  // The client list loads on open; a failure is logged only (spec §8).
  const clients = useQuery(clientPickerQuery(api));
  useEffect(() => {
    if (clients.error) console.warn('Could not load clients:', errorDetail(clients.error));
  }, [clients.error]);
  const clientList: readonly ClientRecord[] = clients.data ?? NO_CLIENTS;

  // The business's GST rounding (once on the total, or per line), so these figures equal the document's.
  const settings = useQuery({ ...settingsQuery(api), retry: false });
  const rounding = settings.data?.gst_rounding;

  // Typing paints at once; the figures follow in a render React may interrupt (useDeferredValue),
  // so a keystroke on a long document never waits for the totals.
  const shown = useDeferredValue(state);
  const figures = useMemo(() => calculatorFigures(shown, rounding), [shown, rounding]);
  const { totals, margin } = figures;
  const amounts = useMemo(() => new Map(shown.lines.map((l, i) => [l.key, formatNzd(totals.lines[i]?.amountCents ?? 0n)])), [shown, totals]);
  const canRemove = state.lines.length > 1;
  const noun = state.type === 'quote' ? 'Quote' : 'Invoice';

  const addLine = () => {
    setLastAdded(state.nextKey);
    dispatch({ type: 'addLine' });
  };

  const applyMarginToLines = () => {
    const m = marginOf(state);
    dispatch({ type: 'applyMargin' });
    show(appliedMarginNotice(m));
  };

  const saveTemplate = () => {
    const name = templateName.trim();
    if (name === '') {
      window.alert('Please enter a template name');
      return;
    }
    store.save(
      {
        name,
        type: state.type,
        lineItems: templateLineItems(state),
        profitMarginPercent: marginOf(state),
        includeGst: state.includeGst,
        clientData: choice.kind === 'new' ? { ...newClient } : null,
      },
      new Date(),
    );
    setTemplateName('');
    show(`Template "${name}" saved!`);
  };

  const loadTemplate = (t: Template) => {
    dispatch({ type: 'loadTemplate', template: t });
    if (t.clientData) {
      setChoice({ kind: 'new' });
      setNewClient(t.clientData);
    }
    setLastAdded(null);
    show(`Template "${t.name}" loaded!`);
  };

  const deleteTemplate = (t: Template) => {
    if (window.confirm('Delete this template?')) store.remove(t.id);
  };

  // Spec §4 Document creation: client first (quick-add), then the document without blank lines,
  // then its PDF, then the detail page.
  const generate = async () => {
    if (busy) return;
    setBusy(true);
    try {
      let clientId: string | null = choice.kind === 'existing' ? choice.id : null;
      if (choice.kind === 'new' && newClient.name.trim() !== '') {
        const body = { name: newClient.name.trim(), email: newClient.email.trim(), phone: newClient.phone.trim() };
        const created = await api.post<ClientRecord>('/clients', body, { idempotencyKey: keyFor('client', body) });
        clientId = created.id;
        void queryClient.invalidateQueries({ queryKey: ['clients'] });
      }
      const body = { type: state.type, line_items: lineItemsToSend(state), client_id: clientId };
      const doc = await createDocument(api, body, keyFor('document', body));
      await generatePdf(api, doc.id);
      void invalidateDocuments(queryClient);
      await navigate({ to: '/app/invoices/$id', params: { id: doc.id } });
    } catch (e) {
      window.alert(`Error creating invoice: ${errorDetail(e) ?? 'Request failed'}`);
      setBusy(false);
    }
  };

  return (
    <section className="screen calc" aria-labelledby="calc-title">
      <h1 id="calc-title" className="screen-title">
        Quote &amp; Profit Calculator
      </h1>

      <div className="calc__layout">
        <div className="calc__main">
          <section className="card" aria-labelledby="calc-doc-title">
            <h2 id="calc-doc-title" className="card__title">
              Document
            </h2>
            <fieldset className="segmented">
              <legend className="field__label">Document type</legend>
              {(['quote', 'invoice'] as const satisfies readonly DocumentType[]).map((t) => (
                <label key={t} className="segmented__option">
                  <input type="radio" name="calc-doc-type" value={t} checked={state.type === t} onChange={() => dispatch({ type: 'setType', value: t })} />
                  <span>{t === 'quote' ? 'Quote' : 'Invoice'}</span>
                </label>
              ))}
            </fieldset>

            <ClientPicker clients={clientList} loading={clients.isPending} choice={choice} onChoose={setChoice} />

            {choice.kind === 'new' && (
              <fieldset className="calc-quick-add">
                <legend className="calc-quick-add__title">Add New Client</legend>
                <div className="field field--spaced">
                  <label htmlFor="new-client-name" className="field__label">
                    Name <span className="field__required">(required)</span>
                  </label>
                  <input
                    id="new-client-name"
                    className="input"
                    type="text"
                    required
                    autoComplete="off"
                    autoCapitalize="words"
                    value={newClient.name}
                    onChange={(e) => setNewClient({ ...newClient, name: e.target.value })}
                  />
                </div>
                <div className="field field--spaced">
                  <label htmlFor="new-client-email" className="field__label">
                    Email
                  </label>
                  <input
                    id="new-client-email"
                    className="input"
                    type="email"
                    inputMode="email"
                    autoComplete="off"
                    value={newClient.email}
                    onChange={(e) => setNewClient({ ...newClient, email: e.target.value })}
                  />
                </div>
                <div className="field field--spaced">
                  <label htmlFor="new-client-phone" className="field__label">
                    Phone
                  </label>
                  <input
                    id="new-client-phone"
                    className="input"
                    type="tel"
                    autoComplete="off"
                    value={newClient.phone}
                    onChange={(e) => setNewClient({ ...newClient, phone: e.target.value })}
                  />
                </div>
              </fieldset>
            )}
          </section>

          <section className="card" aria-labelledby="calc-lines-title">
            <h2 id="calc-lines-title" className="card__title">
              Line items
            </h2>
            <ol className="calc-lines">
              {state.lines.map((line, i) => (
                <LineRow key={line.key} line={line} index={i} amount={amounts.get(line.key) ?? '$0.00'} canRemove={canRemove} autoFocus={line.key === lastAdded} dispatch={dispatch} />
              ))}
            </ol>
            <button type="button" className="button button--secondary button--block" onClick={addLine}>
              <PlusIcon />
              Add Line Item
            </button>
          </section>
        </div>

        <div className="calc__side">
          <section className="card calc-totals" aria-labelledby="calc-totals-title">
            <h2 id="calc-totals-title" className="visually-hidden">
              Totals
            </h2>
            <label className="switch">
              <input type="checkbox" role="switch" checked={state.includeGst} onChange={(e) => dispatch({ type: 'setIncludeGst', value: e.target.checked })} />
              <span className="switch__track" aria-hidden="true" />
              <span className="switch__label">Include GST ({GST_RATE_PERCENT}%)</span>
            </label>
            <dl className="figures">
              <div className="figures__row">
                <dt>Subtotal</dt>
                <dd data-testid="calc-subtotal">{formatNzd(totals.subtotalCents)}</dd>
              </div>
              <div className="figures__row">
                <dt>GST ({GST_RATE_PERCENT}%)</dt>
                <dd data-testid="calc-gst">{formatNzd(totals.gstCents)}</dd>
              </div>
              <div className="figures__row figures__row--total">
                <dt>Total {state.includeGst ? '(incl. GST)' : '(excl. GST)'}</dt>
                <dd data-testid="calc-total">{formatNzd(totals.totalCents)}</dd>
              </div>
            </dl>
          </section>

          <section className="card" aria-labelledby="calc-margin-title">
            <h2 className="card__title disclosure__heading">
              <button
                id="calc-margin-title"
                type="button"
                className="disclosure__toggle"
                aria-expanded={marginOpen}
                aria-controls="calc-margin-body"
                onClick={() => setMarginOpen((o) => !o)}
              >
                Profit Margin
                <span className="disclosure__summary chip chip--brand">{margin.percent}%</span>
              </button>
            </h2>
            <div id="calc-margin-body" className="disclosure__body" hidden={!marginOpen}>
              <div className="field field--spaced">
                <label htmlFor="calc-margin" className="field__label">
                  Margin %
                </label>
                <input
                  id="calc-margin"
                  className="input input--number input--short"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  step={1}
                  value={state.marginText}
                  aria-describedby="calc-margin-hint"
                  onChange={(e) => dispatch({ type: 'setMargin', text: e.target.value })}
                  onBlur={() => dispatch({ type: 'settleMargin' })}
                />
                <p id="calc-margin-hint" className="field__hint">
                  {MARGIN_HINT}
                </p>
              </div>
              {margin.lowMargin && <p className="callout callout--warning">{LOW_MARGIN_WARNING}</p>}
              <dl className="figures calc-margin-figures">
                <div className="figures__row">
                  <dt>Your Costs</dt>
                  <dd data-testid="margin-costs">{formatNzd(margin.costsCents)}</dd>
                </div>
                <div className="figures__row">
                  <dt>Profit</dt>
                  <dd data-testid="margin-profit">{formatNzd(margin.profitCents)}</dd>
                </div>
                <div className="figures__row figures__row--total">
                  <dt>Charge Client</dt>
                  <dd data-testid="margin-charge">{formatNzd(margin.chargeClientCents)}</dd>
                </div>
              </dl>
              <button type="button" className="button button--primary button--block" onClick={applyMarginToLines}>
                Apply margin
              </button>
            </div>
          </section>

          <section className="card" aria-labelledby="calc-templates-title">
            <h2 id="calc-templates-title" className="card__title">
              Templates
            </h2>
            <div className="calc-template-save">
              <label htmlFor="calc-template-name" className="field__label">
                Template name
              </label>
              <div className="calc-template-save__row">
                <input
                  id="calc-template-name"
                  className="input"
                  type="text"
                  autoComplete="off"
                  enterKeyHint="done"
                  placeholder="e.g. Deck job"
                  value={templateName}
                  onChange={(e) => setTemplateName(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      saveTemplate();
                    }
                  }}
                />
                <button type="button" className="button button--secondary" onClick={saveTemplate}>
                  Save Template
                </button>
              </div>
            </div>
            {templates.length > 0 && (
              <ul className="calc-template-list" aria-label="Saved templates">
                {templates.map((t) => (
                  <li key={t.id} className="calc-template-list__item">
                    <span className="calc-template-list__name">
                      {t.name}
                      <span className="calc-template-list__meta">
                        {t.type === 'quote' ? 'Quote' : 'Invoice'} · {t.lineItems.length} {t.lineItems.length === 1 ? 'line' : 'lines'}
                      </span>
                    </span>
                    <span className="calc-template-list__actions">
                      <button type="button" className="button button--ghost button--compact" onClick={() => loadTemplate(t)}>
                        Load<span className="visually-hidden"> template {t.name}</span>
                      </button>
                      <button type="button" className="button button--danger button--compact" onClick={() => deleteTemplate(t)}>
                        Delete<span className="visually-hidden"> template {t.name}</span>
                      </button>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <div className="calc__generate">
            <p className="calc__generate-total" aria-hidden="true">
              <span>Total</span>
              <strong>{formatNzd(totals.totalCents)}</strong>
            </p>
            <button type="button" className="button button--accent button--large button--block" onClick={() => void generate()} disabled={busy} aria-busy={busy}>
              {busy ? 'Generating...' : `Generate ${noun}`}
            </button>
          </div>
        </div>
      </div>

      <Notice notice={notice} onClose={clear} />
    </section>
  );
}
