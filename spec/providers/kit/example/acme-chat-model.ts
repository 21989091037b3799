import type { Observable } from 'rxjs';
import {
  InvalidOptionsError,
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  type FinishReason,
  type Usage,
} from 'rx-advisors';
import {
  clientSecrets,
  DEFAULT_IDLE_TIMEOUT,
  idleTimeoutRule,
  readStreamIndex,
  sdkEventStream,
  StreamEventError,
  translateStream,
  validateClient,
  type ChunkSink,
  type StreamTranslator,
} from 'rx-advisors/provider-kit';
// In your package: from 'acme-sdk' (an optional peer dependency).
import type { AcmeClient, AcmeEvent, AcmeRequestBody } from './fake-acme-sdk.js';

/** Options of {@link AcmeChatModel}. */
export interface AcmeChatModelOptions {
  /** The Acme client the user constructed (key, base URL and retries are theirs). */
  client: AcmeClient;
  /** The model name; a request's `options.model` overrides it. */
  model: string;
  /** Milliseconds without an event before the call fails; default 120 000. */
  idleTimeout?: number;
}

/** A ChatModel over the Acme SDK: one streaming call per subscription. */
export class AcmeChatModel implements ChatModel {
  readonly provider = 'acme';
  private readonly client: AcmeClient;
  private readonly model: string;
  private readonly idleTimeout: number;
  private readonly secrets: string[];

  constructor(options: AcmeChatModelOptions) {
    validateClient(options.client, ['chat', 'stream'], 'an Acme client: new Acme({ apiKey })');
    if (typeof options.model !== 'string' || options.model === '') {
      throw new InvalidOptionsError({
        option: 'model',
        value: options.model,
        expected: 'a model name',
      });
    }
    const idleTimeout = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
    if (!idleTimeoutRule.test(idleTimeout)) {
      throw new InvalidOptionsError({
        option: 'idleTimeout',
        value: idleTimeout,
        expected: idleTimeoutRule.expected,
      });
    }
    this.client = options.client;
    this.model = options.model;
    this.idleTimeout = idleTimeout;
    // Read once: the key and any defaultHeaders/defaultQuery values never reach a message.
    this.secrets = clientSecrets(options.client);
  }

  stream(request: ChatRequest): Observable<ChatChunk> {
    return translateStream({
      // Opened per subscription; unsubscribing (or the idle timeout) aborts the call.
      events$: sdkEventStream((signal) =>
        this.client.chat.stream(acmeBody(request, this.model), { signal }),
      ),
      createTranslator: () => new AcmeTranslator(),
      errors: { provider: this.provider, secrets: this.secrets },
      idleTimeout: this.idleTimeout,
    });
  }
}

/** The Acme body for a request (a real adapter also maps tool calls and tool results). */
function acmeBody(request: ChatRequest, model: string): AcmeRequestBody {
  return {
    model: request.options.model ?? model,
    messages: request.messages.map((message) => ({
      role: message.role,
      content: message.content,
    })),
    tools: request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
    })),
  };
}

/** Translates one Acme stream: text, tool calls by index, then usage and finish. */
export class AcmeTranslator implements StreamTranslator<AcmeEvent> {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();
  private usage: Usage = {
    inputTokens: undefined,
    outputTokens: undefined,
    totalTokens: undefined,
  };
  private reason: FinishReason | undefined;

  event(event: AcmeEvent, sink: ChunkSink): void {
    switch (event.type) {
      case 'start':
        sink.next({ type: 'metadata', id: event.id, model: event.model });
        return;
      case 'text':
        if (event.text !== '') sink.next({ type: 'text-delta', text: event.text });
        return;
      case 'tool': {
        // A key, checked: a hostile index fails the call instead of freezing it.
        const index = readStreamIndex(event.index, 'tool.index');
        const call = this.calls.get(index);
        if (call === undefined) {
          const id = event.id ?? `call_${index}`;
          const name = event.name ?? '';
          this.calls.set(index, { id, name, arguments: event.args });
          sink.next({ type: 'tool-call-delta', index, id, name, argumentsDelta: event.args });
        } else {
          call.arguments += event.args;
          sink.next({ type: 'tool-call-delta', index, argumentsDelta: event.args });
        }
        return;
      }
      case 'done':
        this.reason = toFinishReason(event.reason);
        this.usage = {
          inputTokens: event.inputTokens,
          outputTokens: event.outputTokens,
          totalTokens: event.inputTokens + event.outputTokens,
        };
        return;
      case 'error':
        // Becomes a ProviderError; retryable when the code is a transient one.
        throw new StreamEventError(event.code, event.message, event);
      default:
        return assertNever(event);
    }
  }

  end(sink: ChunkSink): void {
    if (this.reason === undefined) {
      throw new StreamEventError('incomplete_stream', 'the stream ended before done', undefined);
    }
    for (const call of this.calls.values()) {
      sink.next({
        type: 'tool-call',
        id: call.id,
        name: call.name,
        arguments: call.arguments || '{}',
      });
    }
    sink.next({ type: 'usage', usage: this.usage });
    sink.next({ type: 'finish', reason: this.reason });
  }
}

function toFinishReason(reason: 'stop' | 'max_tokens' | 'tool_use'): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    default:
      return assertNever(reason);
  }
}

function assertNever(value: never): never {
  throw new TypeError(`unexpected value: ${JSON.stringify(value)}`);
}
