// The shape of every aggregate in the domain: decide(command, state) → events (or a DomainError),
// evolve(state, event) → state, both pure, folded from initialState(). The api's command handling
// and the domain's given/when/then specs both work on this one type.
export interface Decider<C, E, S> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
}
