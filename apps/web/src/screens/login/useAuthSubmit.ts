import type { FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCommand } from '../shared/command.ts';

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
  const command = useCommand({ run: send });
  const submit = (e: FormEvent<HTMLFormElement>) =>
    command.submit(() => {
      const problem = check ? check() : null;
      return problem ? { ok: false, error: problem } : { ok: true, body: undefined };
    })(e);
  const outcome = command.result;
  return {
    // Leaving: the button stays busy until the screen has gone.
    busy: command.pending || outcome === 'leaving',
    error: command.invalid ?? (command.failure === undefined ? null : failed(command.failure)),
    submit,
    done: outcome && outcome !== 'leaving' ? outcome.done : null,
  };
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
