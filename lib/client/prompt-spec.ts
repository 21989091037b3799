import type { Observable, Subscriber } from 'rxjs';
import { checkMediaLimits } from '../core/media-limits.js';
import type { Advisor } from '../advisor-api/advisor.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatOptions } from '../core/chat-options.js';
import { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import type { MediaPart } from '../core/media-part.js';
import type { Tool } from '../core/tool.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { refuseRepeatedTools, uniqueTools } from '../tools/unique-tools.js';
import { nextNow, subscribeNow } from '../advisor-api/advisor-chain.js';
import type { AdvisorChain } from '../advisor-api/advisor.js';
import { callChain } from './call-chain.js';
import { contextOf, EMPTY, NO_MEDIA, userState, type PromptState } from './prompt-state.js';
import { CallResponseSpec } from './call-response-spec.js';
import type { ClientDefaults } from './client-defaults.js';
import { StreamResponseSpec } from './stream-response-spec.js';

/**
 * `client.prompt(text)`: a spec with the user text set, built in one step (not an empty
 * spec, then `user(text)`'s copy).
 * @internal
 * @example
 * ```ts
 * promptSpec(defaults, 'Hi').stream().content();
 * ```
 * @param defaults The client's defaults.
 * @param text The user text, if any.
 * @returns The spec.
 */
export function promptSpec(defaults: ClientDefaults, text: string | undefined): PromptSpec {
  if (text === undefined) return new PromptSpec(defaults);
  return new PromptSpec(defaults, userState(text));
}

/**
 * One call being described: an immutable builder (every method returns a new spec), so
 * a spec can be reused and its Observables re-subscribed. Messages are sent as: system,
 * `messages(...)`, then the user text.
 *
 * @example
 * ```ts
 * client
 *   .prompt()
 *   .system('Be brief.')
 *   .user('What time is it in Paris?')
 *   .advisorParams({ conversationId: 'c1' })
 *   .call()
 *   .content();
 * ```
 */
export class PromptSpec {
  /** @internal */
  constructor(
    private readonly defaults: ClientDefaults,
    private readonly state: PromptState = EMPTY,
  ) {}

  /**
   * Sets the system text of this call (replaces the client's default system text).
   * @param text The system instruction.
   * @returns A new spec.
   */
  system(text: string): PromptSpec {
    return this.with({ system: text });
  }

  /**
   * Sets the user text of this call, with images or files when the model takes them
   * (`UserMessage.media`; an adapter refuses a part its provider cannot take with an
   * `UnsupportedMediaError` before the request is sent).
   * @example
   * ```ts partial
   * client
   *   .prompt()
   *   .user('What is in this picture?', [
   *     { mediaType: 'image/png', data: { url: 'https://example.com/cat.png' } },
   *   ])
   *   .call()
   *   .content();
   * ```
   * @param text The user's message.
   * @param media Images and files sent with it (replaces those of an earlier `user()`).
   * @returns A new spec.
   */
  user(text: string, media: readonly MediaPart[] = NO_MEDIA): PromptSpec {
    return this.with({ user: text, userMedia: media });
  }

  /**
   * Adds messages (history, few-shot examples) between the system text and the user text.
   * @param messages Messages to add.
   * @returns A new spec.
   */
  messages(...messages: Message[]): PromptSpec {
    return this.with({ messages: [...this.state.messages, ...messages] });
  }

  /**
   * Adds tools the model may call in this call, besides the client's default tools.
   * @param tools Tools to offer.
   * @returns A new spec.
   */
  tools(...tools: Tool[]): PromptSpec {
    return this.with({ tools: refuseRepeatedTools([...this.state.tools, ...tools], 'tools') });
  }

  /**
   * Adds tools by name, from the client's tool registry (`defaultToolRegistry`).
   * @param names Registered tool names.
   * @returns A new spec.
   */
  toolNames(...names: string[]): PromptSpec {
    return this.with({ toolNames: [...this.state.toolNames, ...names] });
  }

  /**
   * Values every tool of this call receives as `ToolContext.values`.
   * @param values Merged over the client's default tool context.
   * @returns A new spec.
   */
  toolContext(values: Readonly<Record<string, unknown>>): PromptSpec {
    return this.with({ toolContext: { ...this.state.toolContext, ...values } });
  }

  /**
   * Adds advisors for this call, besides the client's default advisors.
   * @param advisors Advisors to add.
   * @returns A new spec.
   */
  advisors(...advisors: Advisor[]): PromptSpec {
    return this.with({ advisors: [...this.state.advisors, ...advisors] });
  }

  /**
   * Advisor parameters of this call; they land in `request.context`.
   * @param params Merged over the client's default advisor params.
   * @returns A new spec.
   */
  advisorParams(params: Readonly<Record<string, unknown>>): PromptSpec {
    return this.with({ advisorParams: { ...this.state.advisorParams, ...params } });
  }

  /**
   * Model options of this call.
   * @param options Merged over the client's default options.
   * @returns A new spec.
   */
  options(options: ChatOptions): PromptSpec {
    return this.with({ options: { ...this.state.options, ...options } });
  }

  /**
   * Describes the call's aggregated result.
   * @returns The call response spec (`content()`, `chatResponse()`, `entity()`).
   */
  call(): CallResponseSpec {
    return new CallResponseSpec(this);
  }

  /**
   * Describes the call's streamed result.
   * @returns The stream response spec (`content()`, `chunks()`).
   */
  stream(): StreamResponseSpec {
    return new StreamResponseSpec(this);
  }

  private with(changes: Partial<PromptState>): PromptSpec {
    // Written out, not `{ ...this.state, ...changes }`: two spreads cost about 4× this on
    // the first-chunk path (`prompt(text)` comes here). No method sets a field to undefined.
    const state = this.state;
    return new PromptSpec(this.defaults, {
      system: 'system' in changes ? changes.system : state.system,
      messages: changes.messages ?? state.messages,
      user: 'user' in changes ? changes.user : state.user,
      userMedia: changes.userMedia ?? state.userMedia,
      tools: changes.tools ?? state.tools,
      toolNames: changes.toolNames ?? state.toolNames,
      toolContext: changes.toolContext ?? state.toolContext,
      advisors: changes.advisors ?? state.advisors,
      advisorParams: changes.advisorParams ?? state.advisorParams,
      options: changes.options ?? state.options,
    });
  }

  /**
   * Builds the request and the chain of one subscription and starts it (see `CallStarter`).
   * @internal
   * @param extraAdvisors Advisors for this call only.
   * @returns The chain's Observable.
   */
  start(extraAdvisors: readonly Advisor[] = []): Observable<ChatChunk> {
    const request = this.createRequest();
    // This runs at subscribe time (inside a `defer`), so the first advisor is called now:
    // its `next()` would only wrap this in a second `defer`.
    return nextNow(this.chainOf(request, extraAdvisors), request);
  }

  /**
   * `start().subscribe(subscriber)`, at subscribe time (`content()`): the first advisor
   * subscribes `subscriber` itself when it can (see `subscribeNow`).
   * @internal
   * @param subscriber Receives the call's chunks.
   */
  startInto(subscriber: Subscriber<ChatChunk>): void {
    const request = this.createRequest();
    subscribeNow(this.chainOf(request, EMPTY.advisors), request, subscriber);
  }

  /** The call's chain: the client's, with the call's own advisors and `extra`. */
  private chainOf(request: ChatRequest, extra: readonly Advisor[]): AdvisorChain {
    const own = this.state.advisors;
    const callAdvisors = extra.length === 0 ? own : [...own, ...extra];
    return callChain({ defaults: this.defaults, callAdvisors, request });
  }

  /** The call's first request; its media checked against the client's limits. */
  private createRequest(): ChatRequest {
    const { defaults, state } = this;
    const system = state.system ?? defaults.system;
    const user: Message | undefined =
      state.user === undefined
        ? undefined
        : state.userMedia.length === 0
          ? { role: 'user', content: state.user }
          : { role: 'user', content: state.user, media: [...state.userMedia] };
    let messages: Message[];
    if (system === undefined && state.messages.length === 0) {
      // The usual `prompt(text)`: one literal, not an empty array grown by a push.
      messages = user === undefined ? [] : [user];
    } else {
      messages = [];
      if (system !== undefined) messages.push({ role: 'system', content: system });
      if (state.messages.length > 0) messages.push(...state.messages);
      if (user !== undefined) messages.push(user);
    }
    // What the call does not set is the client's own (frozen) object, not a copy per call.
    const request = ChatRequest.create({
      messages,
      options:
        state.options === EMPTY.options
          ? defaults.options
          : { ...defaults.options, ...state.options },
      tools:
        state.tools.length === 0 && state.toolNames.length === 0
          ? defaults.tools
          : uniqueTools([...defaults.tools, ...state.tools, ...this.lookupTools()]),
      context: contextOf(defaults.advisorParams, state.advisorParams),
      toolContext:
        state.toolContext === EMPTY.toolContext
          ? defaults.toolContext
          : { ...defaults.toolContext, ...state.toolContext },
    });
    // Before any advisor or model: a 100 MB image must not reach memory or a provider. Only
    // the call's messages and user media can carry media (the system text is a string).
    if (state.messages.length > 0 || state.userMedia.length > 0) {
      checkMediaLimits(request.messages, defaults.mediaLimits);
    }
    return request;
  }

  private lookupTools(): Tool[] {
    const { toolNames } = this.state;
    if (toolNames.length === 0) return [];
    const lookup = this.defaults.toolLookup;
    return toolNames.map((name) => {
      const found = lookup?.get(name);
      if (found === undefined) {
        throw new InvalidOptionsError({
          option: 'toolNames',
          value: name,
          expected:
            lookup === undefined
              ? 'no names: this client has no tool registry (set one with defaultToolRegistry)'
              : 'the name of a tool registered in the client tool registry',
        });
      }
      return found;
    });
  }
}
