// Rendering a document's PDF on request and recording the hash of what was rendered (PdfGenerated).
import type { generatePdfResult } from '@tradie/contracts';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import type { AppDeps } from '../../deps.ts';
import { acceptanceFor } from '../../clientLinks/pdf.ts';
import { renderPdfFor } from '../pdf.ts';
import { loadDocument } from '../repository.ts';
import { pdfPathOf } from '../view.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from './run.ts';

export type GeneratedPdf = z.output<typeof generatePdfResult>;

export async function generatePdf(ports: CommandPorts & Pick<AppDeps, 'renderPdf'>, actor: Actor, id: string): Promise<Answer<GeneratedPdf>> {
  // Rendered outside the transaction (pdf.ts); the hash is recorded on the document as it is then.
  const loaded = await loadDocument(ports.store, actor.accountId, id);
  const pdf = await renderPdfFor(ports, actor.accountId, loaded.state, await acceptanceFor(ports.store.db, actor.accountId, loaded.state));
  return runDocumentCommand(ports, actor, {}, async (w) => {
    await w.decide(id, { type: 'RecordPdf', data: { sha256: pdf.sha256 } });
    return { pdf_url: pdfPathOf(id), sha256: pdf.sha256 };
  });
}
