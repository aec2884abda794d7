// The one way a screen saves: a command (a form's submit, a button's action) is a call to the API,
// pending while it runs, then done with its answer or failed with the server's sentence and the
// fields it named. Every form and button that changes something goes through `useCommand`.
import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef, useState, type FormEvent } from 'react';
import { errorDetail, isApiError } from '../../api/client.ts';

/** A form's body, or what is wrong with what was typed (said in the browser; nothing is sent). */
export type Built<T> = { ok: true; body: T } | { ok: false; error: string };

/** What a field of the form is wrong about, by the field's name in the request body. */
export type FieldErrors = Readonly<Record<string, string>>;

const NO_FIELD_ERRORS: FieldErrors = Object.freeze({});

/**
 * The fields a 422 problem response names: `errors: [{ field, message }]` (a body the server's
 * schema refused). The first message for a field is kept; anything else gives none.
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (!isApiError(error) || error.status !== 422 || !error.body || typeof error.body !== 'object') return NO_FIELD_ERRORS;
  const list = (error.body as { errors?: unknown }).errors;
  if (!Array.isArray(list)) return NO_FIELD_ERRORS;
  const fields: Record<string, string> = {};
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const { field, message } = item as { field?: unknown; message?: unknown };
    if (typeof field === 'string' && field !== '' && typeof message === 'string' && !(field in fields)) fields[field] = message;
  }
  return Object.keys(fields).length === 0 ? NO_FIELD_ERRORS : fields;
}

export interface CommandOptions<In, Out> {
  /** The call itself. */
  run: (input: In) => Promise<Out>;
  /** Said when it failed and the server gave no sentence of its own. */
  failed?: string;
  /** As it starts (an optimistic change to the cache). */
  onStart?: (input: In) => unknown;
  /** After a success; the command stays pending until a promise it returns settles (a reload). */
  onDone?: (result: Out, input: In) => unknown;
  /** After a failure, with the sentence `error` holds (for a toast instead of an inline alert). */
  onFailed?: (message: string, error: unknown, input: In) => unknown;
}

export interface Command<In, Out> {
  /** Runs it; ignored while a run is under way (a double tap saves once). `settled` follows this run's end. */
  run: (input: In, settled?: () => void) => void;
  /**
   * A form's onSubmit: `build` makes the body from what was typed, or says what is wrong with it
   * (then that is the error, and nothing is sent).
   */
  submit: (build: () => Built<In>) => (e?: Pick<FormEvent, 'preventDefault'>) => void;
  pending: boolean;
  /** The input of the run under way (which row's button is busy). */
  input: In | undefined;
  /** The sentence to show: the browser's check, else the server's detail, else `failed`. */
  error: string | null;
  /** The browser's check, when the last submit failed it (a field can be marked invalid). */
  invalid: string | null;
  clearInvalid: () => void;
  /** The problem response's field errors, by field. */
  fieldErrors: FieldErrors;
  /** The last run succeeded; `result` is its answer. */
  done: boolean;
  result: Out | undefined;
  /** The raw error of the last failed run (for screens that word particular failures). */
  failure: unknown;
  /** Back to idle: the error, the field errors and the answer go. */
  reset: () => void;
}

export function useCommand<In = void, Out = unknown>(options: CommandOptions<In, Out>): Command<In, Out> {
  const { run, failed, onStart, onDone, onFailed } = options;
  const [invalid, setInvalid] = useState<string | null>(null);
  // The guard is a ref, so a second tap in the same frame (before the pending render) is ignored too.
  const running = useRef(false);
  const mutation = useMutation<Out, unknown, In>({
    mutationFn: run,
    onMutate: (input) => {
      onStart?.(input);
    },
    onSuccess: (result, input) => onDone?.(result, input),
    onError: (error, input) => onFailed?.(errorDetail(error) ?? failed ?? '', error, input),
    onSettled: () => {
      running.current = false;
    },
  });
  const { mutate, reset: resetMutation } = mutation;

  // The same function from render to render (memoised rows can hold it).
  const start = useCallback(
    (input: In, settled?: () => void) => {
      if (running.current) return;
      running.current = true;
      setInvalid(null);
      mutate(input, settled ? { onSettled: settled } : undefined);
    },
    [mutate],
  );

  return {
    run: start,
    submit: (build) => (e) => {
      e?.preventDefault();
      if (running.current) return;
      const built = build();
      if (!built.ok) {
        setInvalid(built.error);
        return;
      }
      start(built.body);
    },
    pending: mutation.isPending,
    input: mutation.isPending ? mutation.variables : undefined,
    invalid,
    clearInvalid: () => setInvalid(null),
    error: invalid ?? (mutation.isError ? (errorDetail(mutation.error) ?? failed ?? null) : null),
    fieldErrors: mutation.isError ? fieldErrorsOf(mutation.error) : NO_FIELD_ERRORS,
    done: mutation.isSuccess,
    result: mutation.data,
    failure: mutation.isError ? mutation.error : undefined,
    reset: () => {
      setInvalid(null);
      resetMutation();
    },
  };
}
