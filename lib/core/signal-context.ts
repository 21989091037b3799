/**
 * A context object whose `signal` is made on first read: an own, enumerable accessor (a
 * spread copies the signal, as from an object literal's getter) whose getter is one shared
 * function, so every instance has one hidden class and no accessor of its own.
 *
 * Why not `{ get signal() { … } }`: V8 gives each such literal its own accessor pair, made
 * in the old generation; until the next full collection that pair keeps the getter's
 * closure, and all it reaches (a tool call's round, its messages, a nested agent's whole
 * answer), alive through every minor collection, which then copies and promotes it all
 * (docs/performance.md, "Issue 28: what kept each tool round alive").
 * @internal
 * @example
 * ```ts
 * const context = new SignalContext();
 * fetch(url, { signal: context.signal });
 * SignalContext.abort(context); // fires the signal (made aborted if it is read later)
 * ```
 */
export class SignalContext {
  /** The signal's controller, made on the first read of `signal`. */
  #controller: AbortController | undefined = undefined;
  /** `abort` came before any read: the signal, when read, is made aborted. */
  #aborted = false;

  declare readonly signal: AbortSignal;

  static readonly #signalProperty: PropertyDescriptor = {
    get(this: SignalContext): AbortSignal {
      let controller = this.#controller;
      if (controller === undefined) {
        controller = this.#controller = new AbortController();
        if (this.#aborted) controller.abort();
      }
      return controller.signal;
    },
    enumerable: true,
    configurable: true,
  };

  constructor() {
    Object.defineProperty(this, 'signal', SignalContext.#signalProperty);
  }

  /**
   * Fires `context`'s signal. One not read yet is not made now (aborting one costs a
   * `DOMException` and its stack trace): it is made aborted if it is read later (a tool
   * that reads it after an `await` sees that its call is over).
   * @param context The context.
   */
  static abort(context: SignalContext): void {
    const controller = context.#controller;
    if (controller === undefined) context.#aborted = true;
    else controller.abort();
  }
}
