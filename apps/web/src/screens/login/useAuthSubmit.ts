import { useState, type FormEvent } from 'react';

/**
 * The submit of an auth form, with its busy flag and its one error. `check` runs first: a problem
 * it returns becomes the error and nothing is sent. Then `send` makes the request and what follows
 * it, and says whether the screen is 'leaving' (the button stays busy until it has gone) or 'done';
 * a failure becomes the error through `failed`. A second submit while one is busy is ignored.
 */
export function useAuthSubmit({ check, send, failed }: {
  check?: () => string | null;
  send: () => Promise<'leaving' | 'done'>;
  failed: (err: unknown) => string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const problem = check ? check() : null;
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      if ((await send()) === 'done') setBusy(false);
    } catch (err) {
      setError(failed(err));
      setBusy(false);
    }
  };
  return { busy, error, submit };
}
