// Given / when / then for deciders: given past events, when a command, then events or an error.
import { expect } from 'vitest';
import { type Decider, DomainError, type DomainErrorCode } from '../src/index.ts';

export function specFor<C, E, S>(decider: Decider<C, E, S>) {
  return (...given: E[]) => ({
    when(command: C) {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then(expected: E[]) {
          expect(run()).toEqual(expected);
        },
        thenThrows(code: DomainErrorCode, detail?: string | RegExp) {
          let caught: unknown;
          try {
            run();
          } catch (e) {
            caught = e;
          }
          expect(caught).toBeInstanceOf(DomainError);
          expect((caught as DomainError).code).toBe(code);
          if (detail !== undefined) expect((caught as DomainError).detail).toMatch(detail);
        },
        events: run,
      };
    },
  });
}
