import type { Advisor } from '../advisor-api/advisor.js';
import type { ChatModel } from '../core/chat-model.js';
import type { ChatOptions } from '../core/chat-options.js';
import type { Tool } from '../core/tool.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { MEDIA_LIMITS_RULES, resolveMediaLimits, type MediaLimits } from '../core/media-limits.js';
import { validateOptions } from '../core/validate-options.js';
import type { ClientDefaults } from './client-defaults.js';
import { refuseRepeatedTools } from '../tools/unique-tools.js';
import { promptSpec, type PromptSpec } from './prompt-spec.js';
import type { ToolLookup } from './tool-lookup.js';

/**
 * The `request.context` key under which a call of a client marked with `runsAsAgent()`
 * names the client.
 * @internal
 * @example
 * ```ts partial
 * const runsIt = request.context.get(CALLING_CLIENT_KEY) === researcher;
 * ```
 */
export const CALLING_CLIENT_KEY = 'rx-advisors.client';

/**
 * The entry point: a model with default advisors, tools and options. Every call is a cold
 * Observable; nothing runs until it is subscribed, and each subscription is one call.
 *
 * @example
 * ```ts
 * import { ChatClient } from 'rx-advisors';
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const client = ChatClient.builder(MockChatModel.script([{ text: 'Hello!' }]))
 *   .defaultSystem('Answer in English.')
 *   .build();
 * client.prompt('Hi').call().content().subscribe(console.log); // 'Hello!'
 * ```
 */
export class ChatClient {
  /** Set by `runsAsAgent()`: each call names this client in its context. */
  private asAgent = false;

  private constructor(private readonly defaults: ClientDefaults) {}

  /**
   * Starts configuring a client.
   * @param model The chat model every call ends at.
   * @returns A builder.
   */
  static builder(model: ChatModel): ChatClientBuilder {
    return new ChatClientBuilder(model);
  }

  /**
   * A client with no defaults.
   * @param model The chat model.
   * @returns A client.
   */
  static create(model: ChatModel): ChatClient {
    return new ChatClientBuilder(model).build();
  }

  /** @internal */
  static fromDefaults(defaults: ClientDefaults): ChatClient {
    return new ChatClient(defaults);
  }

  /**
   * Starts describing a call.
   * @param text The user text (optional: use `.user()` or `.messages()` instead).
   * @returns An immutable prompt spec.
   */
  prompt(text?: string): PromptSpec {
    const spec = promptSpec(this.defaults, text);
    // Only a client an agent tool runs pays this (the agents' cycle check reads it).
    return this.asAgent ? spec.advisorParams({ [CALLING_CLIENT_KEY]: this }) : spec;
  }

  /**
   * Marks this client as one an agent tool runs: from now on each of its calls, top-level
   * ones included, names it in `request.context` (under {@link CALLING_CLIENT_KEY}), so
   * an agent called again below its own top-level call is refused at once.
   * @internal
   */
  runsAsAgent(): void {
    this.asAgent = true;
  }

  /**
   * A builder prefilled with this client's defaults, to derive a variant.
   * @returns A new builder.
   */
  mutate(): ChatClientBuilder {
    return new ChatClientBuilder(this.defaults.model, this.defaults);
  }
}

/**
 * Configures a {@link ChatClient}. Each `default…` method adds to (lists) or merges over
 * (records) what was set before.
 *
 * @example
 * ```ts partial
 * const client = ChatClient.builder(model)
 *   .defaultSystem('Answer in English.')
 *   .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
 *   .defaultTools(getTime)
 *   .build();
 * ```
 */
export class ChatClientBuilder {
  private state: ClientDefaults;

  /** @internal */
  constructor(model: ChatModel, defaults?: ClientDefaults) {
    if (typeof model?.stream !== 'function') {
      throw new InvalidOptionsError({
        option: 'model',
        value: model,
        expected: 'a ChatModel (an object with stream())',
      });
    }
    this.state = defaults ?? {
      model,
      system: undefined,
      advisors: [],
      tools: [],
      options: {},
      advisorParams: {},
      toolContext: {},
      toolLookup: undefined,
      mediaLimits: resolveMediaLimits(undefined),
    };
  }

  /**
   * @param text The system text of every call (a call's `.system()` replaces it).
   * @returns this builder.
   */
  defaultSystem(text: string): this {
    return this.set({ system: text });
  }

  /**
   * @param advisors Advisors every call runs.
   * @returns this builder.
   */
  defaultAdvisors(...advisors: Advisor[]): this {
    return this.set({ advisors: [...this.state.advisors, ...advisors] });
  }

  /**
   * @param tools Tools every call offers.
   * @returns this builder.
   */
  defaultTools(...tools: Tool[]): this {
    return this.set({
      tools: refuseRepeatedTools([...this.state.tools, ...tools], 'defaultTools'),
    });
  }

  /**
   * @param options Model options of every call.
   * @returns this builder.
   */
  defaultOptions(options: ChatOptions): this {
    return this.set({ options: { ...this.state.options, ...options } });
  }

  /**
   * @param params Advisor params of every call.
   * @returns this builder.
   */
  defaultAdvisorParams(params: Readonly<Record<string, unknown>>): this {
    return this.set({ advisorParams: { ...this.state.advisorParams, ...params } });
  }

  /**
   * @param values Tool context values of every call.
   * @returns this builder.
   */
  defaultToolContext(values: Readonly<Record<string, unknown>>): this {
    return this.set({ toolContext: { ...this.state.toolContext, ...values } });
  }

  /**
   * @param registry Where `prompt().toolNames(...)` looks tools up (a `ToolRegistry`).
   * @returns this builder.
   */
  defaultToolRegistry(registry: ToolLookup): this {
    return this.set({ toolLookup: registry });
  }

  /**
   * Limits on the inline media (base64, bytes) of a call's messages, checked before any
   * advisor or model runs; a call over a limit fails with a `MediaLimitError`.
   * @example
   * ```ts
   * import { ChatClient } from 'rx-advisors';
   * import { MockChatModel } from 'rx-advisors/testing';
   * const client = ChatClient.builder(MockChatModel.script([{ text: 'A cat.' }]))
   *   .defaultMediaLimits({ maxMediaPartBytes: 5 * 1024 * 1024 })
   *   .build();
   * ```
   * @param limits `maxMediaPartBytes` (default 20 MiB), `maxMediaRequestBytes` (default 50 MiB).
   * @returns this builder.
   */
  defaultMediaLimits(limits: MediaLimits): this {
    return this.set({ mediaLimits: { ...this.state.mediaLimits, ...resolveGiven(limits) } });
  }

  /**
   * @returns The configured client.
   */
  build(): ChatClient {
    // Every call's request shares what the call does not set (options, tools, tool context)
    // with these defaults instead of copying them: frozen, so no advisor can change them for
    // the calls after it. The builder only ever replaces these objects, never writes to them.
    const { options, tools, toolContext, advisors, advisorParams } = this.state;
    for (const shared of [options, tools, toolContext, advisors, advisorParams]) {
      Object.freeze(shared);
    }
    return ChatClient.fromDefaults(this.state);
  }

  private set(changes: Partial<ClientDefaults>): this {
    this.state = { ...this.state, ...changes };
    return this;
  }
}

/** The limits given, validated (defaults not filled in: they merge over the current ones). */
function resolveGiven(limits: MediaLimits): MediaLimits {
  return validateOptions(limits, MEDIA_LIMITS_RULES);
}
