// The detail's Edit, Duplicate and Delete draft, and what Edit says about a document that can no
// longer be changed: why, and how to replace it ('Void and re-issue' for an invoice, 'Copy to a new
// quote' for a quote), which opens the copy in the calculator.
import './edit-actions.css';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import type { DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { deleteDocument, deleteDraftConfirm, duplicateDocument, editability, voidDocument } from '../shared/documentEdits.ts';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { voidConfirmText } from './voidText.ts';
import { documentKeys, invalidateDocuments } from '../shared/queries.ts';

interface Props {
  doc: DocumentDetail;
  reference: string;
  show: (text: string, tone?: NoticeTone) => void;
}

/** The calculator opened on a draft (its edit mode). */
export const editHref = (id: string): string => `/app/calculator?edit=${encodeURIComponent(id)}`;

type Busy = 'duplicate' | 'delete' | 'replace' | null;

/** The pieces the detail places: three buttons in its row of actions, and the panel Edit opens under the row. */
export interface EditActionParts {
  /** Edit (absent on a void document). */
  edit: ReactNode;
  duplicate: ReactNode;
  /** Delete draft (only on a draft nobody has seen). */
  remove: ReactNode;
  /** Why a document cannot be edited, and its replacement; null until Edit is pressed on one. */
  panel: ReactNode;
}

export function useEditActions({ doc, reference, show }: Props): EditActionParts {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { keyFor, forget } = useIdempotencyKeys();
  const [explaining, setExplaining] = useState(false);
  const panelId = useId();
  const can = editability(doc);
  const isVoid = doc.status === 'void';

  /** The copy made and cached; the key is forgotten, so the next tap makes another copy. */
  const makeCopy = async (): Promise<DocumentDetail> => {
    const copy = await duplicateDocument(api, doc.id, keyFor('duplicate', doc.id));
    forget('duplicate');
    queryClient.setQueryData(documentKeys.detail(copy.id), copy);
    void invalidateDocuments(queryClient);
    return copy;
  };

  const action = useCommand({
    run: async (what: Exclude<Busy, null>): Promise<{ what: typeof what; copy?: DocumentDetail }> => {
      if (what === 'delete') {
        await deleteDocument(api, doc.id);
        return { what };
      }
      if (what === 'replace' && can.editable === false && can.replace === 'void-and-copy') {
        const voided = await voidDocument(api, doc.id);
        queryClient.setQueryData(documentKeys.detail(voided.id), voided);
      }
      return { what, copy: await makeCopy() };
    },
    failed: 'Something went wrong',
    onDone: async ({ what, copy }) => {
      if (what === 'delete') {
        queryClient.removeQueries({ queryKey: documentKeys.detail(doc.id) });
        void invalidateDocuments(queryClient);
        await navigate({ to: '/app/invoices', search: { tab: doc.type === 'quote' ? 'quotes' : 'invoices' } });
        return;
      }
      if (!copy) return;
      if (what === 'replace') await navigate({ href: editHref(copy.id) });
      else await navigate({ to: '/app/invoices/$id', params: { id: copy.id } });
    },
    onFailed: (message, _, what) => {
      // A void that went through before the copy failed still shows: reload the detail.
      if (what === 'replace') void invalidateDocuments(queryClient);
      show(message, 'error');
    },
  });
  const busy: Busy = action.pending ? (action.input ?? null) : null;

  const onEdit = () => {
    if (can.editable) void navigate({ href: editHref(doc.id) });
    else setExplaining((open) => !open);
  };

  const onDelete = () => {
    if (window.confirm(deleteDraftConfirm(reference))) action.run('delete');
  };

  const onReplace = () => {
    if (can.editable || !can.replace) return;
    if (can.replace === 'void-and-copy' && !window.confirm(voidConfirmText({ ...doc, reference }))) return;
    action.run('replace');
  };

  const edit = !isVoid && (
    <button
      type="button"
      className="button button--secondary"
      onClick={onEdit}
      aria-expanded={can.editable ? undefined : explaining}
      aria-controls={can.editable || !explaining ? undefined : panelId}
    >
      Edit
    </button>
  );
  const duplicate = (
    <button type="button" className="button button--secondary" onClick={() => action.run('duplicate')} disabled={busy !== null}>
      {busy === 'duplicate' ? 'Duplicating...' : 'Duplicate'}
    </button>
  );
  const remove = can.editable && (
    <button type="button" className="button button--ghost" onClick={onDelete} disabled={busy !== null}>
      {busy === 'delete' ? 'Deleting...' : 'Delete draft'}
    </button>
  );

  const replaceLabel = !can.editable && can.replace === 'void-and-copy' ? 'Void and re-issue' : 'Copy to a new quote';
  const panel =
    !can.editable && explaining && !isVoid ? (
      <div id={panelId} className="callout callout--warning callout--action detail__cannot-edit" role="status">
        <span>{can.reason}</span>
        <span className="detail__cannot-edit-actions">
          {can.replace && (
            <button type="button" className="button button--primary" onClick={onReplace} disabled={busy !== null}>
              {busy === 'replace' ? 'Working...' : replaceLabel}
            </button>
          )}
          <button type="button" className="button button--ghost" onClick={() => setExplaining(false)}>
            Close
          </button>
        </span>
      </div>
    ) : null;

  return { edit, duplicate, remove, panel };
}
