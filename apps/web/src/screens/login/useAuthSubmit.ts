import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';

/**
 * The submit of an auth form, with its busy flag and its one error. `check` runs first: a problem
 * it returns becomes the error and nothing is sent. Then `send` makes the request and what follows
 * it, and says whether the screen is 'leaving' (the button stays busy until it has gone) or is done
 * (`{ done }`: kept as `done`, for the card that takes the form's place); a failure becomes the
 * error through `failed`. A second submit while one is busy is ignored.
 */
export function useAuthSubmit<Done = never>({ check, send, failed }: {
  check?: () => string | null;
  send: () => Promise<'leaving' | { done: Done }>;
  failed: (err: unknown) => string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const problem = check ? check() : null;
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const outcome = await send();
      if (outcome !== 'leaving') {
        setDone(outcome.done);
        setBusy(false);
      }
    } catch (err) {
      setError(failed(err));
      setBusy(false);
    }
  };
  return { busy, error, submit, done };
}

/**
 * How signing in (or up) ends: once `signIn` has succeeded, nothing cached from an earlier session
 * may show for this one, and the app opens at /app/home. For `send`: the screen is 'leaving'.
 */
export function useEnterApp() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async (signIn: () => Promise<unknown>, to: '/app/home' | '/app/setup' = '/app/home'): Promise<'leaving'> => {
    await signIn();
    queryClient.clear();
    await navigate({ to });
    return 'leaving';
  };
}
