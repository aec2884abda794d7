// @vitest-environment jsdom
// The one way a screen saves: pending while the call runs (a second tap sends nothing more), then the
// server's answer, or its problem response mapped once: the `detail` as the sentence, the `errors`
// by field. A check that fails in the browser is said the same way and sends nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, api } from '../../api/client.ts';
import { fieldErrorsOf, useCommand } from './command.ts';
import { createHarness, json, problem } from './testKit.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

function NameForm({ onDone }: { onDone?: (saved: { name: string }) => void }) {
  const save = useCommand({
    run: (body: { name: string; phone: string }) => api.post<{ name: string }>('/things', body),
    failed: 'Could not save the thing',
    onDone,
  });
  const submit = save.submit(() => ({ ok: true, body: { name: 'Aroha', phone: '12' } }));
  const refused = save.submit(() => ({ ok: false, error: 'Type a name' }));
  return (
    <form onSubmit={submit}>
      <p data-testid="state">{save.pending ? 'pending' : save.done ? `done ${save.result?.name}` : 'idle'}</p>
      <p data-testid="error">{save.error ?? ''}</p>
      <p data-testid="fields">{JSON.stringify(save.fieldErrors)}</p>
      <button type="submit">Save</button>
      <button type="button" onClick={() => refused()}>
        Check
      </button>
    </form>
  );
}

const byTestId = (id: string) => h.container.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';

describe('useCommand', () => {
  it('maps a 422 problem to its detail and its field errors, and is pending until the answer', async () => {
    let answer!: (r: Response) => void;
    h.serve(() => new Promise<Response>((r) => (answer = r)));
    h.render(<NameForm />);
    h.click(h.button('Save'));
    await h.until(() => expect(byTestId('state')).toBe('pending'));
    // A second tap while it runs sends nothing more.
    h.click(h.button('Save'));
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]).toEqual({ method: 'POST', path: '/things', body: { name: 'Aroha', phone: '12' } });
    answer(problem(422, 'The phone number is too short', [{ field: 'phone', message: 'At least 6 digits' }, { field: 'phone', message: 'second' }, { field: 'name', message: 'Too friendly' }]));
    await h.until(() => expect(byTestId('state')).toBe('idle'));
    expect(byTestId('error')).toBe('The phone number is too short');
    expect(JSON.parse(byTestId('fields'))).toEqual({ phone: 'At least 6 digits', name: 'Too friendly' });
  });

  it('says the fallback when the server gives no sentence, and the answer once it succeeds', async () => {
    let n = 0;
    h.serve(() => (++n === 1 ? new Response('', { status: 500 }) : json({ name: 'Aroha' }, 201)));
    const saved: string[] = [];
    h.render(<NameForm onDone={(s) => saved.push(s.name)} />);
    h.click(h.button('Save'));
    await h.until(() => expect(byTestId('error')).toBe('Request failed with status code 500'));
    expect(byTestId('fields')).toBe('{}');
    h.click(h.button('Save'));
    await h.until(() => expect(byTestId('state')).toBe('done Aroha'));
    expect(byTestId('error')).toBe('');
    expect(saved).toEqual(['Aroha']);
  });

  it('a button whose first answer is lost runs again on the next tap, and stays pending until that run ends', async () => {
    // The first answer never arrives (the connection drops); the second is held until the test lets it go.
    let n = 0;
    let answer!: (r: Response) => void;
    h.serve(() => (++n === 1 ? Promise.reject(new TypeError('Failed to fetch')) : new Promise<Response>((r) => (answer = r))));
    const settled: string[] = [];
    function GenerateButton() {
      const generate = useCommand({ run: (body: { line: string }) => api.post<{ number: string }>('/invoices', body), failed: 'Request failed' });
      return (
        <>
          <p data-testid="state">{generate.pending ? 'pending' : generate.done ? `done ${generate.result?.number}` : 'idle'}</p>
          <p data-testid="error">{generate.error ?? ''}</p>
          <button type="button" disabled={generate.pending} onClick={() => generate.run({ line: 'Gutter clean' }, () => settled.push(`run ${n}`))}>
            Generate
          </button>
        </>
      );
    }
    h.render(<GenerateButton />);
    h.click(h.button('Generate'));
    await h.until(() => expect(byTestId('error')).toBe('Network Error'));
    expect(byTestId('state')).toBe('idle');
    expect(settled).toEqual(['run 1']);
    h.click(h.button('Generate'));
    await h.until(() => expect(byTestId('state')).toBe('pending'));
    expect(byTestId('error')).toBe('');
    expect(h.calls).toHaveLength(2);
    answer(json({ number: 'QTE-0001' }, 201));
    await h.until(() => expect(byTestId('state')).toBe('done QTE-0001'));
    expect(settled).toEqual(['run 1', 'run 2']);
  });

  it('says what the browser check found and sends nothing', () => {
    h.serve(() => json({}));
    h.render(<NameForm />);
    h.click(h.button('Check'));
    expect(byTestId('error')).toBe('Type a name');
    expect(h.calls).toHaveLength(0);
  });

  it('reads field errors only from a 422 problem', () => {
    const body = { detail: 'x', errors: [{ field: 'a', message: 'b' }] };
    expect(fieldErrorsOf(new ApiError(422, 'x', body))).toEqual({ a: 'b' });
    expect(fieldErrorsOf(new ApiError(409, 'x', body))).toEqual({});
    expect(fieldErrorsOf(new ApiError(422, 'x', { detail: 'x' }))).toEqual({});
    expect(fieldErrorsOf(new Error('x'))).toEqual({});
  });
});
