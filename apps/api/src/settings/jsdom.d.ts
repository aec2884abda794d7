// The one piece of jsdom the logo sanitiser uses. (@types/jsdom would pull the browser's DOM
// library into the whole API's types; logo.ts describes the few DOM shapes it touches itself.)
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: unknown;
  }
}
