import './calculator.css';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { ClientRecord, DocumentDetail } from '@tradie/contracts';
import { formatNzd, type MarginBasis } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import { useSessionUser } from '../../app/useAuth.ts';
import type { Template, TemplateClientData } from '../../templates/templateStore.ts';
import { useTemplates, useTemplateStore } from '../../templates/useTemplates.ts';
import { PlusIcon } from '../../ui/icons.tsx';
import { referenceOf } from '../shared/documents.ts';
import { nzDateTime } from '../shared/nzTime.ts';
import { useCommand } from '../shared/command.ts';
import { pricingOf, pricingQuery } from '../shared/pricing.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { Notice, useNotice } from '../../ui/Toast.tsx';
import {
  calculatorFigures,
  calculatorReducer,
  hasLabourRates,
  initialCalculatorState,
  lineItemsToSend,
  marginOf,
  ownCategoryRates,
  pricedFromCostNotice,
  pricingOf as linePricingOf,
  rowKind,
  templateLineItems,
  type CalculatorState,
  type LineItemToSend,
} from './calculatorModel.ts';
import { choiceLabel, type ClientChoice } from './clientChoice.ts';
import { DocumentPanel, GenerateBar, MarginPanel, TemplatesPanel, TotalsPanel } from './CalculatorPanels.tsx';
import { NO_JOB, clientOfRevision, jobFieldsOf, jobForClient, revisionBody, seedFromDocument, validateCalculatorSearch, type DocumentDetails, type JobDetails } from './editDocument.ts';
import { JobPanel } from './JobPanel.tsx';
import { LineRow } from './LineRow.tsx';
import { createDocument, generatePdf, quickAddClient, saveMarginBasis } from './queries.ts';
import { carryOnQuestion, clearDraft, readDraft, writeDraft, type UnsavedDraft } from './unsavedDraft.ts';
import { Card } from '../../ui/Card.tsx';
import { businessSettingsKey, businessSettingsQuery, clientListQuery, documentKeys, invalidateDocuments } from '../shared/queries.ts';

// Edit mode's parts (the gate that loads the draft, its dates and notes) are fetched only in edit
// mode: a new quote's first load on a weak signal carries none of them.
const EditGate = lazy(() => import('./EditGate.tsx').then((m) => ({ default: m.EditGate })));
const DetailsPanel = lazy(() => import('./DetailsPanel.tsx').then((m) => ({ default: m.DetailsPanel })));

/** The draft the address asks to edit (?edit=), or null for a new document. */
function useEditTarget(): string | null {
  return useLocation({ select: (l) => validateCalculatorSearch(l.search as Record<string, unknown>).edit ?? null });
}

const emptyNewClient: TemplateClientData = { name: '', email: '', phone: '' };

/** This browser's storage, or none (a browser that refuses it): the calculator then just keeps nothing. */
function deviceStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
const NO_CLIENTS: readonly ClientRecord[] = [];

function startState(handover: Template | null): CalculatorState {
  const start = initialCalculatorState();
  return handover ? calculatorReducer(start, { type: 'loadTemplate', template: handover }) : start;
}

/** A new quote or invoice; with ?edit={id}, the draft it names, opened for editing (see EditGate). */
export function CalculatorScreen() {
  const editId = useEditTarget();
  if (editId === null) return <Calculator editing={null} />;
  return (
    <Suspense fallback={null}>
      <EditGate key={editId} id={editId}>
        {(doc) => <Calculator key={doc.id} editing={doc} />}
      </EditGate>
    </Suspense>
  );
}

/**
 * The calculator. `editing` is the draft it opened on (null for a new document): its lines, client,
 * dates and notes are the start, and Save revises it with the version it was opened at.
 */
function Calculator({ editing }: { editing: DocumentDetail | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const store = useTemplateStore();
  const templates = useTemplates(store);
  const { notice, show, clear } = useNotice();

  // The draft as it was opened: a later reload of it (another tab's change) must not move the
  // version Save sends, so someone else's change is refused (409) rather than overwritten.
  const [opened] = useState(() => (editing ? { doc: editing, seed: seedFromDocument(editing) } : null));
  // A template handed over from the Templates tab is applied as the screen opens, then cleared (not while editing).
  const [handover] = useState(() => (opened ? null : store.peekHandOver()));
  const [state, dispatch] = useReducer(calculatorReducer, handover, (h) => opened?.seed.state ?? startState(h));
  const [choice, setChoice] = useState<ClientChoice>(() => opened?.seed.choice ?? (handover?.clientData ? { kind: 'new' } : { kind: 'none' }));
  const [newClient, setNewClient] = useState<TemplateClientData>(handover?.clientData ?? emptyNewClient);
  const [details, setDetails] = useState<DocumentDetails | null>(opened?.seed.details ?? null);
  const [job, setJob] = useState<JobDetails>(opened?.seed.job ?? NO_JOB);
  const [lastAdded, setLastAdded] = useState<number | null>(null);
  // Generate refused a row: its key and the message shown under its description.
  const [rowError, setRowError] = useState<{ key: number; message: string } | null>(null);
  const { keyFor } = useIdempotencyKeys();

  // A new document half-built earlier on this device (unsavedDraft.ts): offered back before anything
  // else, and kept as it is typed once the tradie has answered. Not while editing a saved draft.
  const userId = useSessionUser()?.id ?? null;
  const [storage] = useState(deviceStorage);
  const [offer, setOffer] = useState<UnsavedDraft | null>(() => (opened || handover || !userId || !storage ? null : readDraft(storage, userId)));

  // What the buttons act on, read when pressed: the handlers stay the same functions from render to
  // render, so the memoised panels that hold them do not re-render on every keystroke.
  const latest = useRef({ state, choice, newClient, details, job });
  useLayoutEffect(() => {
    latest.current = { state, choice, newClient, details, job };
  });

  useEffect(() => {
    if (!handover) return;
    store.clearHandOver();
    show(`Template "${handover.name}" loaded!`);
  }, [handover, store, show]);

  // The client list loads on open; a failure is logged only.
  const clients = useQuery(clientListQuery(api));
  useEffect(() => {
    if (clients.error) console.warn('Could not load clients:', errorDetail(clients.error));
  }, [clients.error]);
  const clientList: readonly ClientRecord[] = clients.data ?? NO_CLIENTS;

  // Picking a client fills in the site address with theirs, unless one was typed.
  const chooseClient = useCallback(
    (next: ClientChoice) => {
      setChoice(next);
      const picked = next.kind === 'existing' ? clientList.find((c) => c.id === next.id) : undefined;
      setJob((j) => jobForClient(j, picked?.address ?? null));
    },
    [clientList],
  );

  // The business's GST rounding (once on the total, or per line), so these figures equal the document's.
  const settings = useQuery({ ...businessSettingsQuery(api), retry: false });
  const rounding = settings.data?.gst_rounding;
  // A business not registered for GST adds none: the switch goes, and every line is priced without it
  // (as the server saves it).
  const registered = settings.data?.gst_registered !== false;
  const registeredNow = useRef(registered);
  useLayoutEffect(() => {
    registeredNow.current = registered;
  });

  // Typing paints at once; the figures follow in a render React may interrupt (useDeferredValue),
  // so a keystroke on a long document never waits for the totals.
  const shown = useDeferredValue(state);
  const figures = useMemo(() => calculatorFigures(registered ? shown : { ...shown, includeGst: false }, rounding), [shown, rounding, registered]);
  const { totals, margin } = figures;
  const amounts = useMemo(() => new Map([...figures.rowAmounts].map(([key, cents]) => [key, formatNzd(cents)])), [figures]);
  const kinds = useMemo(() => new Map(shown.lines.map((l) => [l.key, rowKind(l)])), [shown]);
  // The account's way of working out a price (markup or margin), once the settings have loaded.
  // A tap on this screen wins over a settings answer that arrives after it.
  const savedBasis = settings.data?.margin_basis;
  const basisChosen = useRef(false);
  useEffect(() => {
    if (savedBasis && !basisChosen.current) dispatch({ type: 'setMarginBasis', value: savedBasis });
  }, [savedBasis]);
  // The business's pricing from Settings: each category's percentage and the labour rates.
  const pricingSettings = useQuery({ ...pricingQuery(api), retry: false });
  const savedPricing = pricingSettings.data;
  useEffect(() => {
    if (savedPricing) dispatch({ type: 'setPricing', pricing: pricingOf(savedPricing) });
  }, [savedPricing]);
  const chooseBasis = useCallback(
    (value: MarginBasis) => {
      basisChosen.current = true;
      dispatch({ type: 'setMarginBasis', value });
      // Remembered for the account; the calculator works either way if saving fails.
      void saveMarginBasis(api, value).then(
        () => queryClient.invalidateQueries({ queryKey: businessSettingsKey }),
        (e: unknown) => console.warn('Could not save the margin setting:', errorDetail(e)),
      );
    },
    [queryClient],
  );
  // A row that was refused loses its error once it has a description (or is emptied).
  useEffect(() => {
    if (rowError && kinds.get(rowError.key) !== 'needsDescription') setRowError(null);
  }, [rowError, kinds]);
  // Kept on the device as it changes: a tab switch, a reload or a lost signal loses nothing.
  const keeping = !opened && offer === null && userId !== null && storage !== null;
  // Set once the document is saved: a late re-render (the client list reloading) must not keep it again.
  const saved = useRef(false);
  useEffect(() => {
    if (!keeping || saved.current) return;
    const { type, lines, includeGst, marginText, marginTouched } = state;
    const clientName = choice.kind === 'new' ? newClient.name.trim() : choiceLabel(choice, clientList);
    writeDraft(storage, userId, { type, lines, includeGst, marginText, marginTouched, choice, newClient, job, clientName });
  }, [keeping, storage, userId, state, choice, newClient, job, clientList]);

  const carryOn = () => {
    if (!offer) return;
    dispatch({ type: 'resume', draft: offer });
    setChoice(offer.choice);
    setNewClient(offer.newClient);
    setJob(offer.job);
    setOffer(null);
  };
  const startAgain = () => {
    if (userId && storage) clearDraft(storage, userId);
    setOffer(null);
  };

  const canRemove = state.lines.length > 1;
  const noun = state.type === 'quote' ? 'Quote' : 'Invoice';

  const addLine = () => {
    setLastAdded(state.nextKey);
    dispatch({ type: 'addLine' });
  };

  /**
   * What the price book picker prices a cost by: exactly what 'Price from cost' would (the model's pricingOf):
   * the line's category's percentage from Settings, or the percentage typed for this job.
   */
  const pricing = useCallback(() => linePricingOf(latest.current.state), []);

  const applyMarginToLines = useCallback(() => {
    const now = latest.current.state;
    const m = marginOf(now);
    dispatch({ type: 'priceFromCost' });
    show(pricedFromCostNotice(now.pricing && !now.marginTouched ? null : m, now.marginBasis));
  }, [show]);

  const saveTemplate = useCallback(
    async (typed: string): Promise<boolean> => {
      // The panel asks for a name before it calls this.
      const name = typed.trim();
      if (name === '') return false;
      const { state: now, choice: chosen, newClient: client } = latest.current;
      try {
        // Kept by the account on the server (templates/templateStore.ts): 'saved' once it answered.
        await store.save({
          name,
          type: now.type,
          lineItems: templateLineItems(now),
          profitMarginPercent: marginOf(now),
          includeGst: now.includeGst,
          clientData: chosen.kind === 'new' ? { ...client } : null,
        });
      } catch (e) {
        show(errorDetail(e) ?? 'Could not save the template', 'error');
        return false;
      }
      show(`Template "${name}" saved!`);
      return true;
    },
    [store, show],
  );

  const loadTemplate = useCallback(
    (t: Template) => {
      dispatch({ type: 'loadTemplate', template: t });
      if (t.clientData) {
        setChoice({ kind: 'new' });
        setNewClient(t.clientData);
      }
      setLastAdded(null);
      show(`Template "${t.name}" loaded!`);
    },
    [show],
  );

  const deleteTemplate = useCallback(
    (t: Template) => {
      if (!window.confirm('Delete this template?')) return;
      store.remove(t.id).catch((e: unknown) => show(errorDetail(e) ?? 'Could not delete the template', 'error'));
    },
    [store, show],
  );

  // Document creation: client first (quick-add), then the document without blank lines,
  // then its PDF, then the detail page.
  const save = useCommand({
    run: async ({ now, chosen, client, nowDetails, nowJob, lines }: { now: CalculatorState; chosen: ClientChoice; client: TemplateClientData; nowDetails: DocumentDetails | null; nowJob: JobDetails; lines: LineItemToSend[] }) => {
      let clientId: string | null = chosen.kind === 'existing' ? chosen.id : null;
      if (chosen.kind === 'new' && client.name.trim() !== '') {
        const body = { name: client.name.trim(), email: client.email.trim(), phone: client.phone.trim() };
        const created = await quickAddClient(api, body, keyFor('client', body));
        clientId = created.id;
        void queryClient.invalidateQueries({ queryKey: ['clients'] });
      }
      if (opened && nowDetails) {
        // Save: the same document, its number kept; a 409 (changed meanwhile) is said and nothing is lost here.
        const body = revisionBody(opened.doc, opened.seed.details, nowDetails, lines, clientOfRevision(opened.seed.choice, chosen, clientId), { original: opened.seed.job, now: nowJob });
        // Edit mode loaded this module already (the gate's check); a new document never needs it.
        const { reviseDocument } = await import('../shared/documentEdits.ts');
        const doc = await reviseDocument(api, opened.doc.id, body);
        // The answer is the document as saved (its PDF is rendered from it when asked for).
        queryClient.setQueryData(documentKeys.detail(doc.id), doc);
        void invalidateDocuments(queryClient);
        await navigate({ to: '/app/invoices/$id', params: { id: doc.id } });
        return;
      }
      const body = { type: now.type, line_items: lines, client_id: clientId, ...jobFieldsOf(nowJob, now.type) };
      const doc = await createDocument(api, body, keyFor('document', body));
      // Saved on the server: the copy on this device is no longer needed.
      saved.current = true;
      if (userId && storage) clearDraft(storage, userId);
      await generatePdf(api, doc.id);
      void invalidateDocuments(queryClient);
      await navigate({ to: '/app/invoices/$id', params: { id: doc.id } });
    },
    failed: 'Request failed',
    // Editing: said in the notice and nothing is lost here. A new document: said under Generate.
    onFailed: (message) => {
      if (opened) show(`Couldn't save: ${message}`, 'error');
    },
  });
  const { run: runSave } = save;
  const generate = useCallback(() => {
    const { state: now, choice: chosen, newClient: client, details: nowDetails, job: nowJob } = latest.current;
    // A row with a price but no description: nothing is saved, and the row says why.
    const items = lineItemsToSend(registeredNow.current ? now : { ...now, includeGst: false });
    if (!items.ok) {
      setRowError({ key: items.key, message: items.message });
      document.getElementById(`line-${items.key}-description`)?.focus();
      return;
    }
    runSave({ now, chosen, client, nowDetails, nowJob, lines: items.lines });
  }, [runSave]);
  const generateError = !opened && save.error ? `Could not create the ${noun.toLowerCase()}: ${save.error}` : null;


  return (
    <section className="screen calc" aria-labelledby="calc-title">
      <h1 id="calc-title" className="screen-title">
        {opened ? `Edit ${referenceOf(opened.doc)}` : 'Quote & Profit Calculator'}
      </h1>

      {offer && (
        <Card titleId="calc-resume-title" title={carryOnQuestion(offer)} className="calc-resume">
          <p className="card__intro">{resumeSummary(offer)}</p>
          <div className="calc-resume__actions">
            <button type="button" className="button button--primary" onClick={carryOn}>
              Carry on
            </button>
            <button type="button" className="button button--secondary" onClick={startAgain}>
              Start again
            </button>
          </div>
        </Card>
      )}

      {!offer && (
        <div className="calc__layout">
          <div className="calc__main">
            <DocumentPanel
              type={state.type}
              dispatch={dispatch}
              clients={clientList}
              clientsLoading={clients.isPending}
              choice={choice}
              onChoose={chooseClient}
              newClient={newClient}
              onNewClient={setNewClient}
              typeLocked={opened !== null}
            />

            <JobPanel type={state.type} job={job} onChange={setJob} />

            {details && (
              <Suspense fallback={null}>
                <DetailsPanel type={state.type} details={details} onChange={setDetails} />
              </Suspense>
            )}

            <Card titleId="calc-lines-title" title="Line items">
              <ol className="calc-lines">
                {state.lines.map((line, i) => (
                  <LineRow
                    key={line.key}
                    line={line}
                    index={i}
                    amount={amounts.get(line.key) ?? '$0.00'}
                    kind={kinds.get(line.key) ?? 'line'}
                    error={rowError?.key === line.key ? rowError.message : null}
                    canRemove={canRemove}
                    autoFocus={line.key === lastAdded}
                    pricing={pricing}
                    dispatch={dispatch}
                  />
                ))}
              </ol>
              <button type="button" className="button button--secondary button--block" onClick={addLine}>
                <PlusIcon />
                Add Line Item
              </button>
              {hasLabourRates(state) && (
                <button type="button" className="button button--secondary button--block" onClick={() => dispatch({ type: 'addLabour' })}>
                  <PlusIcon />
                  Add Labour
                </button>
              )}
            </Card>
          </div>

          <div className="calc__side">
            <TotalsPanel totals={totals} includeGst={registered && state.includeGst} registered={registered} dispatch={dispatch} />
            <MarginPanel margin={margin} profit={figures.profit} marginText={state.marginText} categoryRates={ownCategoryRates(state)} dispatch={dispatch} onApply={applyMarginToLines} onBasis={chooseBasis} basis={state.marginBasis} />
            {/* A template would replace the draft's lines and type: not offered while editing. */}
            {!opened && <TemplatesPanel templates={templates} onSave={saveTemplate} onLoad={loadTemplate} onDelete={deleteTemplate} />}
            <GenerateBar
              totalCents={totals.totalCents}
              label={opened ? 'Save changes' : `Generate ${noun}`}
              busyLabel={opened ? 'Saving...' : 'Generating...'}
              busy={save.pending}
              error={generateError}
              onGenerate={generate}
            />
          </div>
        </div>
      )}

      <Notice notice={notice} onClose={clear} />
    </section>
  );
}

/** What the kept draft holds, said under the question: "It isn't saved yet: 2 lines, last changed 28 Nov 2026, 9:41 am. …" */
function resumeSummary(draft: UnsavedDraft): string {
  const lines = draft.lines.filter((l) => l.description.trim() !== '').length;
  const at = Number.isNaN(new Date(draft.savedAt).getTime()) ? '' : `, last changed ${nzDateTime(draft.savedAt)}`;
  const what = lines === 1 ? '1 line' : `${lines} lines`;
  return `It isn't saved yet: ${what}${at}. Carry on where you left off, or start again (the unsaved one is then thrown away).`;
}
