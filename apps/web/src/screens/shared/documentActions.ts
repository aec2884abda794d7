// 'Mark Paid' and the sync-to-Xero button: the same behaviour on the list and on the detail.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type { AccountingSyncResult, DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { useCommand } from './command.ts';
import { MARK_PAID_CONFIRM, MARK_PAID_FAILED, newIdempotencyKey, PROVIDER_PATH, syncedMessage, syncErrorMessage } from './documents.ts';
import { documentPath, invalidateDocuments, type Api } from './queries.ts';
import type { NoticeTone } from '../../ui/Toast.tsx';

type Show = (text: string, tone?: NoticeTone) => void;

export const markPaid = (api: Api, id: string, idempotencyKey: string) => api.post<DocumentDetail>(documentPath(id, '/mark-paid'), undefined, { idempotencyKey });

export const syncToAccounting = (api: Api, id: string) => api.post<AccountingSyncResult>(`/integrations/${PROVIDER_PATH}/sync/${encodeURIComponent(id)}`);

/** One Idempotency-Key per document until the call succeeds: a double tap or a retry pays once. */
function useKeyPerDocument() {
  const keys = useRef(new Map<string, string>());
  return {
    keyFor(id: string): string {
      let key = keys.current.get(id);
      if (!key) {
        key = newIdempotencyKey();
        keys.current.set(id, key);
      }
      return key;
    },
    done(id: string) {
      keys.current.delete(id);
    },
  };
}

/** Mark as paid: confirm 'Mark this invoice as paid?', then reload; error 'Failed to mark as paid'. */
export function useMarkPaid(show: Show) {
  const queryClient = useQueryClient();
  const keys = useKeyPerDocument();
  const mutation = useCommand({
    run: (id: string) => markPaid(api, id, keys.keyFor(id)),
    onDone: async (_doc, id) => {
      keys.done(id);
      await invalidateDocuments(queryClient);
    },
    onFailed: () => show(MARK_PAID_FAILED, 'error'),
  });
  const { run: mutate } = mutation;
  const run = useCallback(
    (id: string) => {
      if (window.confirm(MARK_PAID_CONFIRM)) mutate(id);
    },
    [mutate],
  );
  return { pendingId: mutation.input ?? null, run };
}

/** Accounting sync: already synced → 'Already synced Xero: {n}'; else '✓ Synced Xero: {n}' and reload. */
export function useSyncToAccounting(show: Show) {
  const queryClient = useQueryClient();
  const mutation = useCommand({
    run: (id: string) => syncToAccounting(api, id),
    onDone: async (result) => {
      show(syncedMessage(result), result.already_synced ? 'info' : 'success');
      if (!result.already_synced) await invalidateDocuments(queryClient);
      if (result.warning) show(`${syncedMessage(result)}. ${result.warning}`, 'info');
    },
    onFailed: (_, e) => show(syncErrorMessage(e), 'error'),
  });
  const { run: mutate } = mutation;
  const run = useCallback((id: string) => mutate(id), [mutate]);
  return { pendingId: mutation.input ?? null, run };
}
