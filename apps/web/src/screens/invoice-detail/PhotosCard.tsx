// Photos on a quote or invoice: taken with the phone's camera from this screen (or chosen from the
// phone), shown as thumbnails, each ticked or not for the PDF's photos appendix. The client sees
// them on their page. They change only while the document is a draft: the server says why
// otherwise, and a sent one shows its photos without the buttons.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { DocumentDetail, PhotoRecord } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { useCommand } from '../shared/command.ts';
import { documentPhotoBlob, documentPhotoQuery, documentPhotosQuery, removeDocumentPhoto, setDocumentPhotoInPdf, uploadDocumentPhoto } from './queries.ts';

export const PHOTOS_TEXT = {
  title: 'Photos',
  add: 'Add a photo',
  adding: 'Adding the photo...',
  hint: 'Shown to your client on their page. Tick the ones to print in the PDF too.',
  sentHint: 'Sent as they are: the photos of a sent document stay as the client saw them.',
  none: 'No photos yet. Add the job before you start, a sketch or the spec sheet.',
} as const;

type PhotoChange = { kind: 'add'; file: File } | { kind: 'pdf'; photo: PhotoRecord; inPdf: boolean } | { kind: 'remove'; photo: PhotoRecord };

export function PhotosCard({ doc, show }: { doc: Pick<DocumentDetail, 'id' | 'status' | 'type'>; show: (text: string, tone?: NoticeTone) => void }) {
  const queryClient = useQueryClient();
  const photos = useQuery(documentPhotosQuery(api, doc.id));
  const editable = doc.status === 'draft';
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const listKey = documentPhotosQuery(api, doc.id).queryKey;
  /** A tick changed here and not yet read back from the server. */
  const [ticked, setTicked] = useState<Record<string, boolean>>({});

  const change = useCommand({
    run: async (c: PhotoChange) => {
      if (c.kind === 'add') return uploadDocumentPhoto(api, doc.id, c.file, c.file.name || 'photo.jpg');
      if (c.kind === 'pdf') return setDocumentPhotoInPdf(api, doc.id, c.photo.id, c.inPdf);
      await removeDocumentPhoto(api, doc.id, c.photo.id);
      return null;
    },
    failed: 'The photo could not be saved',
    onDone: async (_, c) => {
      await queryClient.invalidateQueries({ queryKey: listKey, exact: true });
      if (c.kind === 'pdf') setTicked(({ [c.photo.id]: _kept, ...rest }) => rest);
      show(c.kind === 'add' ? 'Photo added' : c.kind === 'remove' ? 'Photo removed' : c.inPdf ? 'The photo will be in the PDF' : 'The photo is left out of the PDF');
    },
    onFailed: (message, _e, c) => {
      if (c.kind === 'pdf') setTicked(({ [c.photo.id]: _undone, ...rest }) => rest);
      show(message, 'error');
    },
  });

  const list = photos.data?.photos ?? [];
  // A sent document with no photos has nothing to show here.
  if (!editable && list.length === 0) return null;
  const full = photos.data ? list.length >= photos.data.max : false;
  const adding = change.pending && change.input?.kind === 'add';

  return (
    <Card titleId="detail-photos-title" title={PHOTOS_TEXT.title} className="detail-photos">
      <p className="field__hint">{editable ? PHOTOS_TEXT.hint : PHOTOS_TEXT.sentHint}</p>
      {photos.isSuccess && list.length === 0 && <p className="card__intro">{PHOTOS_TEXT.none}</p>}
      {list.length > 0 && (
        <ul className="detail-photos__grid" aria-label="Photos on it">
          {list.map((p, i) => (
            <li key={p.id} className="detail-photos__item">
              <Thumb documentId={doc.id} photo={p} alt={`Photo ${i + 1} of ${list.length}`} />
              <label className="choice detail-photos__pdf">
                <input
                  type="checkbox"
                  // Ticked at once; the list read again after the answer says what is kept.
                  checked={ticked[p.id] ?? p.in_pdf}
                  disabled={!editable || change.pending}
                  onChange={(e) => {
                    const inPdf = e.target.checked;
                    setTicked((t) => ({ ...t, [p.id]: inPdf }));
                    change.run({ kind: 'pdf', photo: p, inPdf });
                  }}
                />
                <span>In the PDF</span>
              </label>
              {editable && (
                <button type="button" className="button button--ghost" onClick={() => change.run({ kind: 'remove', photo: p })} disabled={change.pending} aria-label={`Remove photo ${i + 1}`}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable && !full && (
        <>
          {/* The camera on a phone (capture), or the photo library; one photo at a time on a weak signal. */}
          <input
            ref={input}
            id={inputId}
            className="visually-hidden"
            type="file"
            accept="image/*"
            capture="environment"
            aria-label={PHOTOS_TEXT.add}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) change.run({ kind: 'add', file });
            }}
          />
          <button type="button" className="button button--secondary button--block" onClick={() => input.current?.click()} disabled={change.pending} aria-busy={adding}>
            {adding ? PHOTOS_TEXT.adding : PHOTOS_TEXT.add}
          </button>
        </>
      )}
    </Card>
  );
}

/** A photo's thumbnail, fetched with the tradie's sign-in; a tap opens the full photo. */
function Thumb({ documentId, photo, alt }: { documentId: string; photo: PhotoRecord; alt: string }) {
  const thumb = useQuery(documentPhotoQuery(api, documentId, photo.id));
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!thumb.data) return;
    const made = URL.createObjectURL(thumb.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [thumb.data]);
  const openFull = async () => {
    const blob = await documentPhotoBlob(api, documentId, photo.id, 'full');
    const made = URL.createObjectURL(blob);
    window.open(made, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(made), 60_000);
  };
  return (
    <button type="button" className="detail-photos__thumb" onClick={() => void openFull()} aria-label={`${alt}: open it full size`}>
      {url ? <img src={url} alt={alt} width={photo.width > photo.height ? 160 : Math.round((160 * photo.width) / photo.height)} height={photo.width > photo.height ? Math.round((160 * photo.height) / photo.width) : 160} /> : <span className="detail-photos__loading">Loading…</span>}
    </button>
  );
}
