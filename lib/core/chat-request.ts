import type { Tool } from './tool.js';
import type { ChatOptions } from './chat-options.js';
import type { Message } from './message.js';

/** The fields of a {@link ChatRequest}. */
export interface ChatRequestInit {
  messages?: readonly Message[];
  options?: ChatOptions;
  tools?: readonly Tool[];
  /** The call's shared advisor context; a fresh Map when omitted. */
  context?: Map<string, unknown>;
  /** Values handed to every tool of the call as `ToolContext.values`. */
  toolContext?: Readonly<Record<string, unknown>>;
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

  private constructor(
    messages: readonly Message[],
    options: ChatOptions,
    tools: readonly Tool[],
    context: Map<string, unknown>,
    toolContext: Readonly<Record<string, unknown>>,
  ) {
    this.messages = messages;
    this.options = options;
    this.tools = tools;
    this.context = context;
    this.toolContext = toolContext;
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
    );
  }

  /**
   * A copy with other messages.
   * @param messages The new message list (replaces the old one).
   * @returns A new request sharing this one's context.
   */
  withMessages(messages: readonly Message[]): ChatRequest {
    return new ChatRequest(messages, this.options, this.tools, this.context, this.toolContext);
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
    );
  }

  /**
   * A copy with other tools.
   * @param tools The new tool list (replaces the old one).
   * @returns A new request sharing this one's context.
   */
  withTools(tools: readonly Tool[]): ChatRequest {
    return new ChatRequest(this.messages, this.options, tools, this.context, this.toolContext);
  }

  /**
   * A copy with other tool-context values.
   * @param toolContext The values tools receive as `ToolContext.values`.
   * @returns A new request sharing this one's context.
   */
  withToolContext(toolContext: Readonly<Record<string, unknown>>): ChatRequest {
    return new ChatRequest(this.messages, this.options, this.tools, this.context, toolContext);
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
