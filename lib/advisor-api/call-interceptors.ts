import type { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { ContextKeys } from './context-keys.js';
import type { ModelCall, ModelCallInterceptor } from './model-call-interceptor.js';
import type { ToolCallInterceptor } from './tool-call-interceptor.js';

const KEY = ContextKeys.CALL_INTERCEPTORS;

/**
 * How an interceptor is registered.
 * @example
 * ```ts
 * import type { InterceptOptions } from 'rx-advisors/advisor-api';
 * const nestedToo: InterceptOptions = { inherit: true };
 * ```
 */
export interface InterceptOptions {
  /**
   * Whether it also applies to the calls nested in this one (a `ChatClient` run as a tool,
   * whose request context links to this one through `ContextKeys.PARENT_CALL`); default
   * `false`. A budget inherits (a child's tokens count); a journal does not (a child keeps
   * its own).
   */
  inherit?: boolean;
}

interface Entry<T> {
  readonly key: unknown;
  interceptor: T;
  inherit: boolean;
}

/**
 * The interceptors of one call (one `request.context`): the model-call and tool-call
 * seams that advisors register into from `advise`, and that the end of the chain and the
 * tool-execution core read once per model call and once per round. Registration is keyed
 * (an advisor passes itself, or a symbol of its own), so an advisor re-run by a recursive
 * advisor outside it (a retry, a validation attempt) replaces its entry instead of adding
 * a second one; entries keep the place of their first registration. Interceptors compose
 * in registration order: the first registered is the outermost, and advisors register
 * from `advise`, outer advisors first, so the chain's order is the interceptors' order.
 * Inherited interceptors of the calls this one is nested in come before its own.
 *
 * @example
 * ```ts
 * import { defer, tap } from 'rxjs';
 * import { advisor, CallInterceptors } from 'rx-advisors/advisor-api';
 *
 * const key = Symbol('model-call-counter');
 * const counter = advisor({
 *   name: 'ModelCallCounter',
 *   order: 0,
 *   before: (request) => {
 *     let calls = 0;
 *     CallInterceptors.of(request.context).onModelCall(key, (call, proceed) =>
 *       defer(() => {
 *         calls++;
 *         return proceed(call.request).pipe(tap({ complete: () => console.log(calls) }));
 *       }),
 *     );
 *     return request;
 *   },
 * });
 * ```
 */
export class CallInterceptors {
  private readonly models: Entry<ModelCallInterceptor>[] = [];
  private readonly tools: Entry<ToolCallInterceptor>[] = [];
  /**
   * What the lookups of a call that is not nested return, made on the first lookup after a
   * change and kept until the next one: the tool loop reads the tool-call interceptors
   * twice per round and the end of the chain the model-call ones once per model call, and
   * a registry changes once per advisor per call, so a lookup allocates nothing.
   */
  private ownModels: { readonly composed: ModelCallInterceptor | undefined } | undefined;
  private ownTools: readonly ToolCallInterceptor[] | undefined;

  /**
   * The interceptors of a call, created on first use.
   * @param context The call's `request.context`.
   * @returns The one registry of that context.
   */
  static of(context: Map<string, unknown>): CallInterceptors {
    const found = context.get(KEY);
    if (found instanceof CallInterceptors) return found;
    const created = new CallInterceptors();
    context.set(KEY, created);
    return created;
  }

  /**
   * The model-call interceptors that apply to a call (the inherited ones of the calls it
   * is nested in, then its own), composed into one; `undefined` when there are none (the
   * end of the chain then calls the model directly). Read once per model call.
   * @param context The call's `request.context`.
   * @returns The composed interceptor, or `undefined`.
   */
  static modelCallInterceptor(
    context: ReadonlyMap<string, unknown>,
  ): ModelCallInterceptor | undefined {
    if (!context.has(ContextKeys.PARENT_CALL)) {
      const own = context.get(KEY);
      if (!(own instanceof CallInterceptors)) return undefined;
      own.ownModels ??= { composed: composed(own.models.map((entry) => entry.interceptor)) };
      return own.ownModels.composed;
    }
    const list = collect(context, (registry) => registry.models);
    return list === undefined ? undefined : composed(list);
  }

  /**
   * The tool-call interceptors that apply to a call, outermost first (the inherited ones
   * of the calls it is nested in, then its own); empty when there are none. Read once per
   * tool round. The array is the registry's own until its next change: read it, do not
   * keep or change it.
   * @param context The call's `request.context`.
   * @returns The interceptors, in composition order.
   */
  static toolCallInterceptors(
    context: ReadonlyMap<string, unknown>,
  ): readonly ToolCallInterceptor[] {
    if (!context.has(ContextKeys.PARENT_CALL)) {
      const own = context.get(KEY);
      if (!(own instanceof CallInterceptors)) return NONE;
      own.ownTools ??=
        own.tools.length === 0 ? NONE : Object.freeze(own.tools.map((entry) => entry.interceptor));
      return own.ownTools;
    }
    return collect(context, (registry) => registry.tools) ?? NONE;
  }

  /**
   * Registers (or, under a key already registered, replaces) a model-call interceptor.
   * @param key Who registers: the advisor, or a symbol of its own.
   * @param interceptor The interceptor.
   * @param options Whether nested calls inherit it.
   * @returns This registry.
   */
  onModelCall(key: unknown, interceptor: ModelCallInterceptor, options?: InterceptOptions): this {
    register(this.models, key, interceptor, options);
    this.ownModels = undefined;
    return this;
  }

  /**
   * Registers (or, under a key already registered, replaces) a tool-call interceptor.
   * @param key Who registers: the advisor, or a symbol of its own.
   * @param interceptor The interceptor.
   * @param options Whether nested calls inherit it.
   * @returns This registry.
   */
  onToolCall(key: unknown, interceptor: ToolCallInterceptor, options?: InterceptOptions): this {
    register(this.tools, key, interceptor, options);
    this.ownTools = undefined;
    return this;
  }

  /**
   * Removes what is registered under `key` (both seams).
   * @param key The key it was registered with.
   * @returns This registry.
   */
  remove(key: unknown): this {
    for (const list of [this.models, this.tools] as Entry<unknown>[][]) {
      const index = list.findIndex((entry) => entry.key === key);
      if (index !== -1) list.splice(index, 1);
    }
    this.ownModels = undefined;
    this.ownTools = undefined;
    return this;
  }
}

const NONE: readonly ToolCallInterceptor[] = Object.freeze([]);

function register<T>(
  list: Entry<T>[],
  key: unknown,
  interceptor: T,
  options: InterceptOptions | undefined,
): void {
  const inherit = options?.inherit === true;
  const found = list.find((entry) => entry.key === key);
  if (found === undefined) {
    list.push({ key, interceptor, inherit });
    return;
  }
  found.interceptor = interceptor;
  found.inherit = inherit;
}

/**
 * The interceptors of one seam that apply to a call: the inherited ones of its ancestors
 * (outermost ancestor first), then its own; `undefined` when there are none. Two map
 * lookups when nothing is registered and the call is not nested.
 */
function collect<T>(
  context: ReadonlyMap<string, unknown>,
  seam: (registry: CallInterceptors) => readonly Entry<T>[],
): T[] | undefined {
  const own = context.get(KEY);
  let parent = context.get(ContextKeys.PARENT_CALL);
  if (own === undefined && parent === undefined) return undefined;
  const result: T[] = [];
  if (own instanceof CallInterceptors) {
    for (const entry of seam(own)) result.push(entry.interceptor);
  }
  // Ancestors, nearest first: each one's inherited interceptors go before what is there.
  const seen = new Set<unknown>([context]);
  while (parent instanceof Map && !seen.has(parent)) {
    seen.add(parent);
    const registry: unknown = parent.get(KEY);
    if (registry instanceof CallInterceptors) {
      const inherited = seam(registry)
        .filter((entry) => entry.inherit)
        .map((entry) => entry.interceptor);
      result.unshift(...inherited);
    }
    parent = parent.get(ContextKeys.PARENT_CALL);
  }
  return result.length === 0 ? undefined : result;
}

/** The model-call interceptors of a list as one; `undefined` for none. */
function composed(list: readonly ModelCallInterceptor[]): ModelCallInterceptor | undefined {
  if (list.length === 0) return undefined;
  if (list.length === 1) return list[0];
  return (call, proceed) => composeModelCalls(list, 0, call, proceed);
}

function composeModelCalls(
  list: readonly ModelCallInterceptor[],
  index: number,
  call: ModelCall,
  proceed: (request: ChatRequest) => Observable<ChatChunk>,
): Observable<ChatChunk> {
  if (index === list.length) return proceed(call.request);
  return list[index](call, (request) =>
    composeModelCalls(
      list,
      index + 1,
      { request, model: request.chatModel ?? call.model },
      proceed,
    ),
  );
}
