// A form that checks what was typed before it saves: the body is built in the browser (or what is
// wrong with it is said there, and nothing is sent), then the mutation saves it. The message shown
// is the check's, else the server's sentence when the save failed, else the form's own fallback.
import { useState, type FormEvent } from 'react';
import { errorDetail } from '../../api/client.ts';

/** A form's body, or what is wrong with what was typed. */
export type Built<T> = { ok: true; body: T } | { ok: false; error: string };

/** The parts of a `useMutation` result the form reads. */
interface Saving<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  mutate: (body: T) => void;
}

/**
 * `submit` for the form's onSubmit (ignored while a save is under way), and `error` for its alert:
 * `failed` is said when the server refused without a sentence of its own.
 */
export function useCheckedSubmit<T>(mutation: Saving<T>, build: () => Built<T>, failed: string) {
  const [invalid, setInvalid] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mutation.isPending) return;
    const built = build();
    if (!built.ok) {
      setInvalid(built.error);
      return;
    }
    setInvalid(null);
    mutation.mutate(built.body);
  };

  const error = invalid ?? (mutation.isError ? (errorDetail(mutation.error) ?? failed) : null);
  // `invalid`: the check's message, when the last submit failed it (a field can be marked invalid).
  return { submit, error, invalid, clearInvalid: () => setInvalid(null) };
}
