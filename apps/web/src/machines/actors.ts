// What the machines share: the stand-in for an actor the caller must provide, and what the
// Settings machines tell their screen.

/**
 * `notProvidedIn('session')('login')`: the placeholder for an actor given with `.provide()`. Calling
 * it means the machine was started without it, a bug, so it throws and says which.
 */
export const notProvidedIn = (machine: string) => (name: string) => () => {
  throw new Error(`${machine} machine: '${name}' was not provided`);
};

/** What a Settings machine emits for its screen. */
export type SettingsEmitted =
  /** For the Settings banner. `failure` decides how long it stays (3 s / 5 s). */
  | { type: 'message'; text: string; failure: boolean }
  /** A load that failed: logged only. */
  | { type: 'log'; what: string; error: unknown };
