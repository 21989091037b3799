import type { Observable } from 'rxjs';
import type { Tool } from './tool.js';
import type { ChatChunk } from './chat-chunk.js';
import type { ChatOptions } from './chat-options.js';
import type { Message } from './message.js';

/**
 * The model a request names to answer it: structurally a `ChatModel` (declared here so
 * that `chat-model.ts`, which takes a `ChatRequest`, and this file do not import each other).
 *
 * @example
 * ```ts
 * import { ChatRequest, type RequestChatModel } from 'rx-advisors';
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const model: RequestChatModel = MockChatModel.script([{ text: 'Hi' }]);
 * ChatRequest.create().withChatModel(model).chatModel === model; // true
 * ```
 */
export interface RequestChatModel {
  /** The provider's name. */
  readonly provider: string;
  /** The model name used when a request names none (see `ChatModel.defaultModel`). */
  readonly defaultModel?: string | undefined;
  /** Streams one model call (see `ChatModel.stream`). */
  stream(request: ChatRequest): Observable<ChatChunk>;
}

/** The fields of a {@link ChatRequest}. */
export interface ChatRequestInit {
  messages?: readonly Message[];
  options?: ChatOptions;
  tools?: readonly Tool[];
  /** The call's shared advisor context; a fresh Map when omitted. */
  context?: Map<string, unknown>;
  /** Values handed to every tool of the call as `ToolContext.values`. */
  toolContext?: Readonly<Record<string, unknown>>;
  /** The model that answers this request instead of the chain's own (see `withChatModel`). */
  chatModel?: RequestChatModel;
}

const EMPTY_OPTIONS: ChatOptions = Object.freeze({});
const EMPTY_RECORD: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * An immutable chat request. Advisors derive new requests with the `with…` helpers and
 * never mutate one. The one shared, mutable part is `context`: one `Map` per call
 * subscription, seen by every advisor and every round of that call.
 *
 * @example
 * ```ts
 * import { ChatRequest } from 'rx-advisors';
 *
 * const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
 * const colder = request.withOptions({ temperature: 0 });
 * colder.context === request.context; // true: one blackboard per call
 * ```
 */
export class ChatRequest {
  readonly messages: readonly Message[];
  readonly options: ChatOptions;
  readonly tools: readonly Tool[];
  readonly context: Map<string, unknown>;
  readonly toolContext: Readonly<Record<string, unknown>>;
  /**
   * The model that answers this request at the end of the chain, instead of the model the
   * chain was built with; `undefined` (the usual case) means the chain's model. Set by
   * `withChatModel` (what `FallbackAdvisor` does per attempt).
   */
  readonly chatModel: RequestChatModel | undefined;

  private constructor(
    messages: readonly Message[],
    options: ChatOptions,
    tools: readonly Tool[],
    context: Map<string, unknown>,
    toolContext: Readonly<Record<string, unknown>>,
    chatModel: RequestChatModel | undefined,
  ) {
    this.messages = messages;
    this.options = options;
    this.tools = tools;
    this.context = context;
    this.toolContext = toolContext;
    this.chatModel = chatModel;
    Object.freeze(this);
  }

  /**
   * Creates a request.
   * @param init Messages, options, tools, context and tool context; all optional.
   * @returns A new request.
   */
  static create(init: ChatRequestInit = {}): ChatRequest {
    return new ChatRequest(
      init.messages ?? [],
      init.options ?? EMPTY_OPTIONS,
      init.tools ?? [],
      init.context ?? new Map<string, unknown>(),
      init.toolContext ?? EMPTY_RECORD,
      init.chatModel,
    );
  }

  /**
   * A copy with other messages.
   * @param messages The new message list (replaces the old one).
   * @returns A new request sharing this one's context.
   */
  withMessages(messages: readonly Message[]): ChatRequest {
    return new ChatRequest(
      messages,
      this.options,
      this.tools,
      this.context,
      this.toolContext,
      this.chatModel,
    );
  }

  /**
   * A copy with messages appended.
   * @param messages Messages to add at the end.
   * @returns A new request sharing this one's context.
   */
  appendMessages(...messages: Message[]): ChatRequest {
    return this.withMessages([...this.messages, ...messages]);
  }

  /**
   * A copy with options merged over the current ones.
   * @param options Options to set; fields not given keep their values.
   * @returns A new request sharing this one's context.
   */
  withOptions(options: ChatOptions): ChatRequest {
    return new ChatRequest(
      this.messages,
      { ...this.options, ...options },
      this.tools,
      this.context,
      this.toolContext,
      this.chatModel,
    );
  }

  /**
   * A copy with other tools.
   * @param tools The new tool list (replaces the old one).
   * @returns A new request sharing this one's context.
   */
  withTools(tools: readonly Tool[]): ChatRequest {
    return new ChatRequest(
      this.messages,
      this.options,
      tools,
      this.context,
      this.toolContext,
      this.chatModel,
    );
  }

  /**
   * A copy with other tool-context values.
   * @param toolContext The values tools receive as `ToolContext.values`.
   * @returns A new request sharing this one's context.
   */
  withToolContext(toolContext: Readonly<Record<string, unknown>>): ChatRequest {
    return new ChatRequest(
      this.messages,
      this.options,
      this.tools,
      this.context,
      toolContext,
      this.chatModel,
    );
  }

  /**
   * A copy answered by another model: the end of the chain streams `chatModel` instead of
   * the chain's own model, after every advisor has run. `undefined` goes back to the
   * chain's model.
   *
   * @example
   * ```ts
   * import { ChatRequest } from 'rx-advisors';
   * import { MockChatModel } from 'rx-advisors/testing';
   *
   * const backup = MockChatModel.script([{ text: 'From the backup.' }]);
   * const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
   * request.withChatModel(backup).chatModel === backup; // true
   * ```
   * @param chatModel The model that answers, or `undefined` for the chain's model.
   * @returns A new request sharing this one's context.
   */
  withChatModel(chatModel: RequestChatModel | undefined): ChatRequest {
    return new ChatRequest(
      this.messages,
      this.options,
      this.tools,
      this.context,
      this.toolContext,
      chatModel,
    );
  }

  /** The last user message's text, or `undefined` when there is none. */
  get lastUserText(): string | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const message = this.messages[i];
      if (message?.role === 'user') return message.content;
    }
    return undefined;
  }
}
