// /api/v1/invoices: quotes and invoices (docs/api/documents.md). Every route is signed
// in and scoped to the account; another account's document is 404 on every verb. Commands load
// the document stream, decide with the domain's documentDecider and append in one transaction
// (inline projections included); the list and counts read documents_list.
import {
  createDocumentInput, LIST_LIMITS, listDocumentsQuery, markPaidInput, NEXT_CURSOR_HEADER, paymentInput, reviseDocumentInput,
  sendDocumentInput, TOTAL_COUNT_HEADER, voidDocumentInput,
} from '@tradie/contracts';
import {
  type DocumentCommand, type DocumentView, type LocalDate, DEFAULT_PAYMENT_TERMS, discardCommand, documentDecider, documentFigures,
  documentStatus, documentStreamId, invoiceDraftFromQuote, nzDateOf, paymentStatus, parseDecimalInput, centsToNumber,
} from '@tradie/domain';
import type { StoreTx } from '@tradie/store';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { AppEnv } from '../http/env.ts';
import { actorOf, requireAuth } from '../auth/middleware.ts';
import { requireActiveSubscription } from '../billing/access.ts';
import { type Actor, StaleWriteError, decideAndAppend, eventMeta, execute } from '../commands.ts';
import type { AppDeps } from '../deps.ts';
import { parseQuery, refuseUnstorableText } from '../http/body.ts';
import { idempotencyKey, idempotent, requestHash } from '../http/idempotency.ts';
import { ApiError, zodProblem, zodStatus } from '../http/problem.ts';
import { settleReactions } from '../reactions/outbox.ts';
import { loadBusinessSettings } from '../settings/repository.ts';
import { composeDocumentMail } from './email.ts';
import { pdfCacheOf, pdfFileName, pdfFingerprint, renderPdfFor } from './pdf.ts';
import { countDocuments, listDocuments } from './queries.ts';
import { DOCUMENT_NOT_FOUND, clientForDocument, emptyDocument, loadDocument, plausibleId, reserveReference, userNames } from './repository.ts';
import { claimKey, completeKey, releaseKey, type Claim } from './sendClaim.ts';
import { requireConfirmedEmail, reserveSend } from './sendGuard.ts';
import { detailOf, paymentRecordOf, pdfPathOf } from './view.ts';

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;

/**
 * A JSON body through a schema. 415 not JSON, 400 unreadable, 422 the first problem — a line's
 * problem names the line ("Line 2: Each line needs a description"). With `optional`, an empty
 * body reads as {} (the screens' send and mark-paid calls have none).
 */
async function readBody<S extends z.ZodType>(c: Context, schema: S, options: { optional?: boolean } = {}): Promise<z.output<S>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (!(options.optional && text.trim() === '')) {
    if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) throw new ApiError(415, 'Send the request body as JSON (Content-Type: application/json).');
    if (text.trim() === '') throw new ApiError(400, 'The request body is empty. Send a JSON object.');
    try {
      raw = JSON.parse(text) as unknown;
    } catch {
      throw new ApiError(400, 'The request body is not valid JSON.');
    }
    refuseUnstorableText(raw, (p) => (p[0] === 'line_items' && typeof p[1] === 'number' ? `Line ${p[1] + 1}: ${p.slice(2).join('.') || 'The line'}` : p.join('.')));
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError(422, 'The request body must be a JSON object.');
  const r = schema.safeParse(raw);
  if (!r.success) {
    const p = zodProblem(r.error);
    const path = r.error.issues[0]?.path ?? [];
    const line = path[0] === 'line_items' && typeof path[1] === 'number' ? `Line ${path[1] + 1}: ` : '';
    throw new ApiError(zodStatus(r.error), `${line}${p.detail}`, { errors: p.errors });
  }
  return r.data;
}

/** The path's document id; one that cannot name a document is 404 before it reaches an idempotency key (and SQL). */
function documentIdOf(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!plausibleId(id)) throw new ApiError(404, DOCUMENT_NOT_FOUND);
  return id;
}

function reply(c: Context, answer: { status: number; body: unknown; replayed?: boolean }): Response {
  if (answer.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(answer.body as object, answer.status as ContentfulStatusCode);
}

export function documentRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));
  // An expired trial blocks new work (docs/decisions/0004-expired-trial.md); payments, voids,
  // reads and PDFs of what the tradie already has stay open.
  const newWork = requireActiveSubscription(deps);

  const today = (): LocalDate => nzDateOf(deps.clock.now());
  /**
   * After a command's transaction committed: runs the reactions its events set off
   * (reactions/registry.ts), so they are done when the answer goes. Never throws; a failure stays
   * in the outbox and is retried.
   */
  const settle = (accountId: string, id: string): Promise<void> => settleReactions(deps, accountId, documentStreamId(id));

  /** Loads, checks the version the user saw (when given), decides and appends; answers the detail. */
  async function runCommand(tx: StoreTx, actor: Actor, id: string, build: (d: DocumentView) => DocumentCommand, expectedVersion?: number) {
    const loaded = await loadDocument(tx, actor.accountId, id);
    if (expectedVersion !== undefined && loaded.version !== expectedVersion) throw new StaleWriteError(loaded.streamId, expectedVersion, loaded.version);
    const r = await decideAndAppend(tx, loaded, documentDecider, build(loaded.state), eventMeta(deps, actor));
    return detailOf(r.state as DocumentView, r.version, today());
  }

  const simpleCommand = (build: (d: DocumentView) => DocumentCommand) => async (c: Context<AppEnv>) => {
    const actor = actorOf(c);
    const id = c.req.param('id') ?? '';
    return c.json(await execute(deps, (tx) => runCommand(tx, actor, id, build)));
  };

  // ---- reading ---------------------------------------------------------------------------

  r.get('/', async (c) => {
    const q = parseQuery(c, listDocumentsQuery);
    const page = await listDocuments(
      deps.store.db,
      c.get('accountId'),
      { type: q.type, status: q.status, client_id: q.client_id, q: q.q, from: q.from, to: q.to, limit: q.limit ?? LIST_LIMITS.default, cursor: q.cursor },
      today(),
    );
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    if (page.nextCursor) c.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return c.json(page.records);
  });

  r.get('/counts', async (c) => c.json(await countDocuments(deps.store.db, c.get('accountId'))));

  r.get('/:id', async (c) => {
    const loaded = await loadDocument(deps.store, c.get('accountId'), c.req.param('id'));
    return c.json(detailOf(loaded.state, loaded.version, today()));
  });

  // ---- creating and revising -------------------------------------------------------------

  r.post('/', newWork, async (c) => {
    const body = await readBody(c, createDocumentInput);
    const actor = actorOf(c);
    const key = idempotencyKey(c);
    const answer = await execute(deps, (tx) =>
      idempotent(tx, { accountId: actor.accountId, scope: 'documents:create', key, hash: requestHash(body) }, async () => {
        const numbering = await reserveReference(tx, actor.accountId, body.type);
        const client = body.client_id ? await clientForDocument(tx, actor.accountId, body.client_id) : null;
        const settings = await loadBusinessSettings(tx, actor.accountId);
        const id = deps.ids.uuid();
        const allocated = await numbering.allocate(id);
        const meta = eventMeta(deps, actor);
        const drafted = await decideAndAppend(tx, emptyDocument(id), documentDecider, {
          type: 'DraftDocument',
          data: {
            documentId: id,
            type: body.type,
            number: allocated.number,
            reference: allocated.reference,
            client: client?.snapshot ?? null,
            lines: body.line_items,
            gstRounding: settings.gst_rounding === 'line' ? 'line' : 'total',
            issueDate: body.issue_date ?? today(),
            dueDate: body.due_date ?? null,
            paymentTerms: body.payment_terms ?? client?.paymentTerms ?? DEFAULT_PAYMENT_TERMS,
            validUntil: body.valid_until ?? null,
            notes: body.notes ?? '',
          },
        }, meta);
        await allocated.record(meta);
        return { status: 201, body: detailOf(drafted.state as DocumentView, drafted.version, today()) };
      }),
    );
    return reply(c, answer);
  });

  r.put('/:id', newWork, async (c) => {
    const body = await readBody(c, reviseDocumentInput);
    const actor = actorOf(c);
    const id = c.req.param('id');
    const detail = await execute(deps, async (tx) => {
      const loaded = await loadDocument(tx, actor.accountId, id);
      if (body.version !== undefined && loaded.version !== body.version) throw new StaleWriteError(loaded.streamId, body.version, loaded.version);
      const d = loaded.state;
      if (body.type && body.type !== d.type) {
        throw new ApiError(422, d.type === 'quote' ? "A quote can't become an invoice by editing it. Convert it to an invoice instead." : "An invoice can't become a quote.");
      }
      let client = d.client;
      let terms = body.payment_terms ?? d.paymentTerms;
      if (body.client_id === null || body.client_id === '') client = null;
      else if (body.client_id !== undefined) {
        // The same client again picks up their current details; a client removed since keeps the snapshot.
        const found = await clientForDocument(tx, actor.accountId, body.client_id).catch((e: unknown) => {
          if (e instanceof ApiError && e.status === 404 && body.client_id === d.client?.id) return null;
          throw e;
        });
        if (found) {
          client = found.snapshot;
          if (body.client_id !== d.client?.id) terms = body.payment_terms ?? found.paymentTerms;
        }
      }
      const datesMoved = body.issue_date !== undefined || terms !== d.paymentTerms;
      const r = await decideAndAppend(tx, loaded, documentDecider, {
        type: 'ReviseDocument',
        data: {
          client,
          lines: body.line_items,
          issueDate: body.issue_date ?? d.issueDate,
          dueDate: body.due_date ?? (datesMoved ? null : d.dueDate),
          paymentTerms: terms,
          validUntil: body.valid_until ?? (body.issue_date !== undefined ? null : d.validUntil),
          notes: body.notes ?? d.notes,
        },
      }, eventMeta(deps, actor));
      return detailOf(r.state as DocumentView, r.version, today());
    });
    return c.json(detail);
  });

  r.delete('/:id', async (c) => {
    const actor = actorOf(c);
    const id = c.req.param('id');
    const outcome = await execute(deps, async (tx) => {
      const loaded = await loadDocument(tx, actor.accountId, id);
      const command = discardCommand(loaded.state);
      await decideAndAppend(tx, loaded, documentDecider, command, eventMeta(deps, actor));
      return command.type === 'DeleteDraft' ? 'deleted' : 'voided';
    });
    await settle(actor.accountId, id);
    return c.json({ id, outcome });
  });

  // ---- lifecycle -------------------------------------------------------------------------

  r.post('/:id/void', async (c) => {
    const body = await readBody(c, voidDocumentInput, { optional: true });
    const actor = actorOf(c);
    const id = c.req.param('id');
    const detail = await execute(deps, (tx) => runCommand(tx, actor, id, () => ({ type: 'VoidDocument', data: { reason: body.reason } })));
    await settle(actor.accountId, id);
    return c.json(detail);
  });

  // An invoice handed over on site or printed: issued without the app's email, so it counts in the reports.
  r.post('/:id/issue', simpleCommand(() => ({ type: 'MarkIssued' })));
  r.post('/:id/accept', simpleCommand(() => ({ type: 'AcceptQuote' })));
  r.post('/:id/decline', simpleCommand(() => ({ type: 'DeclineQuote' })));

  r.post('/:id/convert', newWork, async (c) => {
    const actor = actorOf(c);
    const id = c.req.param('id');
    const invoice = await execute(deps, async (tx) => {
      // The number's lock comes before any append (see reserveReference).
      const numbering = await reserveReference(tx, actor.accountId, 'invoice');
      const quote = await loadDocument(tx, actor.accountId, id);
      const invoiceId = deps.ids.uuid();
      const meta = eventMeta(deps, actor);
      await decideAndAppend(tx, quote, documentDecider, { type: 'ConvertQuote', data: { invoiceId } }, meta);
      const allocated = await numbering.allocate(invoiceId);
      const draft = invoiceDraftFromQuote(quote.state, { invoiceId, number: allocated.number, reference: allocated.reference, issueDate: today() });
      const drafted = await decideAndAppend(tx, emptyDocument(invoiceId), documentDecider, { type: 'DraftDocument', data: draft }, meta);
      await allocated.record(meta);
      return detailOf(drafted.state as DocumentView, drafted.version, today());
    });
    return c.json(invoice, 201);
  });

  // ---- PDF -------------------------------------------------------------------------------

  r.post('/:id/generate-pdf', async (c) => {
    const actor = actorOf(c);
    const id = c.req.param('id');
    const loaded = await loadDocument(deps.store, actor.accountId, id);
    const pdf = await renderPdfFor(deps, actor.accountId, loaded.state);
    await execute(deps, (tx) => runCommand(tx, actor, id, () => ({ type: 'RecordPdf', data: { sha256: pdf.sha256 } })));
    return c.json({ pdf_url: pdfPathOf(id), sha256: pdf.sha256 });
  });

  r.get('/:id/pdf', async (c) => {
    const accountId = c.get('accountId');
    const id = c.req.param('id');
    const disposition = c.req.query('download') === '1' ? 'attachment' : 'inline';
    const answer = (pdf: { bytes: Buffer; filename: string; sha256: string }) =>
      c.body(new Uint8Array(pdf.bytes), 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `${disposition}; filename="${pdf.filename}"`,
        'Content-Length': String(pdf.bytes.length),
        ETag: `"${pdf.sha256}"`,
      });
    // A repeat download of an unchanged document is answered from the cache after one small query.
    const fingerprint = plausibleId(id) ? await pdfFingerprint(deps, accountId, id) : null;
    const cached = fingerprint ? pdfCacheOf(deps).viaShortcut(fingerprint) : null;
    if (cached) return answer(cached);
    const loaded = await loadDocument(deps.store, accountId, id);
    const pdf = await renderPdfFor(deps, accountId, loaded.state);
    const filename = pdfFileName(loaded.state);
    if (fingerprint) pdfCacheOf(deps).remember(fingerprint, { key: pdf.key, filename, sha256: pdf.sha256 });
    return answer({ bytes: pdf.bytes, filename, sha256: pdf.sha256 });
  });

  // ---- sending ---------------------------------------------------------------------------

  r.post('/:id/send', newWork, async (c) => {
    const body = await readBody(c, sendDocumentInput, { optional: true });
    const actor = actorOf(c);
    const id = documentIdOf(c);
    const key = idempotencyKey(c);
    // No mail relay (sendGuard.ts): an unconfirmed address sends nothing and records nothing.
    await requireConfirmedEmail(deps, actor.userId);
    const claim: Claim | undefined = key ? { accountId: actor.accountId, scope: `documents:send:${id}`, key, hash: requestHash(body) } : undefined;
    if (claim) {
      const got = await claimKey(deps.store.db, claim);
      if (!got.claimed) return reply(c, { status: got.status, body: got.body, replayed: true });
    }
    let mailed = false;
    try {
      const loaded = await loadDocument(deps.store, actor.accountId, id);
      const d = loaded.state;
      const pdf = await renderPdfFor(deps, actor.accountId, d);
      const user = await userNames(deps.store.db, actor.userId);
      const composed = composeDocumentMail({
        document: d,
        settings: pdf.settings,
        user,
        overrides: body,
        pdf: { bytes: pdf.bytes, filename: pdfFileName(d) },
        mailFrom: deps.config.env.MAIL_FROM,
      });
      const sendCommand: DocumentCommand = { type: 'SendDocument', data: { to: composed.to, cc: composed.cc, bcc: composed.bcc, subject: composed.subject } };
      // The decider's refusals (void, converted, no email) come before any mail goes.
      documentDecider.decide(sendCommand, d);
      // The account's daily recipients and burst of sends (sendGuard.ts): 429 before any mail goes;
      // given back when the mail server took nothing.
      const allowance = await reserveSend(deps, actor.accountId, composed);
      const sent = await deps.mailer.send(composed.mail).catch((e: unknown) => allowance.failed(e));
      mailed = true;
      const answer = await execute(deps, async (tx) => {
        const detail = await runCommand(tx, actor, id, () => sendCommand);
        await runCommand(tx, actor, id, () => ({ type: 'RecordPdf', data: { sha256: pdf.sha256 } }));
        const at = deps.clock.now().toISOString();
        const result = { status: 200, body: { id, status: detail.status, to: composed.to, cc: composed.cc, bcc: composed.bcc, subject: composed.subject, message_id: sent.messageId, sent_at: at } };
        if (claim) await completeKey(tx, claim, result);
        return result;
      });
      await settle(actor.accountId, id);
      return reply(c, answer);
    } catch (e) {
      if (claim && !mailed) await releaseKey(deps.store.db, claim);
      if (mailed) deps.log('error', 'an email was sent but could not be recorded', { documentId: id, error: e instanceof Error ? e.message : String(e) });
      const mailError = e as { code?: unknown; detail?: unknown };
      if (mailError?.code === 'MAIL_UNAVAILABLE') throw new ApiError(503, typeof mailError.detail === 'string' ? mailError.detail : "We couldn't send the email right now. Please try again in a few minutes.", undefined, { 'Retry-After': '60' });
      if (mailError?.code === 'MAIL_REJECTED' && typeof mailError.detail === 'string') throw new ApiError(422, mailError.detail);
      throw e;
    }
  });

  // ---- payments --------------------------------------------------------------------------

  r.post('/:id/mark-paid', async (c) => {
    const body = await readBody(c, markPaidInput, { optional: true });
    const actor = actorOf(c);
    const id = documentIdOf(c);
    const key = idempotencyKey(c);
    const answer = await execute(deps, (tx) =>
      idempotent(tx, { accountId: actor.accountId, scope: `documents:mark-paid:${id}`, key, hash: requestHash(body) }, async () => {
        const detail = await runCommand(tx, actor, id, () => ({
          type: 'MarkPaid',
          data: { paymentId: deps.ids.uuid(), date: body.date ?? today(), method: body.method, reference: body.reference },
        }));
        return { status: 200, body: detail };
      }),
    );
    await settle(actor.accountId, id);
    return reply(c, answer);
  });

  r.get('/:id/payments', async (c) => {
    const loaded = await loadDocument(deps.store, c.get('accountId'), c.req.param('id'));
    return c.json(loaded.state.payments.map(paymentRecordOf));
  });

  r.post('/:id/payments', async (c) => {
    const body = await readBody(c, paymentInput);
    const amount = parseDecimalInput(body.amount);
    if (!amount) throw new ApiError(422, 'Amount must be a number');
    const actor = actorOf(c);
    const id = documentIdOf(c);
    const key = idempotencyKey(c);
    const answer = await execute(deps, (tx) =>
      idempotent(tx, { accountId: actor.accountId, scope: `documents:payment:${id}`, key, hash: requestHash(body) }, async () => {
        const paymentId = deps.ids.uuid();
        const loaded = await loadDocument(tx, actor.accountId, id);
        const r = await decideAndAppend(tx, loaded, documentDecider, {
          type: 'RecordPayment',
          data: { paymentId, amount: amount.toFixed(), date: body.date ?? today(), method: body.method, reference: body.reference },
        }, eventMeta(deps, actor));
        const d = r.state as DocumentView;
        const f = documentFigures(d);
        const payment = d.payments.find((p) => p.paymentId === paymentId)!;
        return {
          status: 201,
          body: { ...paymentRecordOf(payment), balance: centsToNumber(f.balanceCents), payment_status: paymentStatus(d, f), status: documentStatus(d, today(), f) },
        };
      }),
    );
    await settle(actor.accountId, id);
    return reply(c, answer);
  });

  r.delete('/:id/payments/:paymentId', async (c) => {
    const actor = actorOf(c);
    const id = c.req.param('id');
    const paymentId = c.req.param('paymentId');
    const detail = await execute(deps, (tx) => runCommand(tx, actor, id, () => ({ type: 'RemovePayment', data: { paymentId } })));
    await settle(actor.accountId, id);
    return c.json(detail);
  });

  return r;
}
