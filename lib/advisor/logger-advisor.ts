import { defer, tap, type Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import { ResponseAssembler } from '../core/response-assembler.js';
import type { Advisor, AdvisorChain } from './advisor.js';
import { Order } from './order.js';
import { redact } from './redact.js';

/** Where a {@link LoggerAdvisor} writes; `console` fits. */
export interface AdvisorLogger {
  info(message: string, details?: unknown): void;
}

/** What a {@link LoggerAdvisor} logs for a request. */
export interface LoggedRequest {
  messages: ChatRequest['messages'];
  options: Record<string, unknown>;
  tools: string[];
}

/** Options of {@link LoggerAdvisor}. */
export interface LoggerAdvisorOptions {
  /** Where to log; default `console`. */
  logger?: AdvisorLogger;
  /** Default `Order.DEFAULT` (0): inside the tool loop, so every model call is logged. */
  order?: number;
  /** Default `'logger'`. */
  name?: string;
  /** Turns a request into what is logged; default: messages, options (secrets redacted), tool names. */
  formatRequest?: (request: ChatRequest) => unknown;
  /** Turns the aggregated response into what is logged; default: the response itself. */
  formatResponse?: (response: ChatResponse) => unknown;
}

/**
 * Logs each request and the aggregated response of each model call. Ordered inside the
 * tool loop by default, so it sees every round. Secrets never reach the log: option
 * fields whose names look like keys, tokens, secrets or headers are redacted, and the
 * SDK client (which holds the API key) is never part of a request.
 *
 * @example
 * ```ts
 * import { ChatClient, LoggerAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new LoggerAdvisor({ logger: { info: (m, d) => myLogger.debug(d, m) } }))
 *   .build();
 * ```
 */
export class LoggerAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  private readonly logger: AdvisorLogger;
  private readonly formatRequest: (request: ChatRequest) => unknown;
  private readonly formatResponse: (response: ChatResponse) => unknown;

  /** @param options Logger, order, name and formatters; all optional. */
  constructor(options: LoggerAdvisorOptions = {}) {
    this.name = options.name ?? 'logger';
    this.order = options.order ?? Order.DEFAULT;
    this.logger = options.logger ?? console;
    this.formatRequest = options.formatRequest ?? defaultRequestFormat;
    this.formatResponse = options.formatResponse ?? ((response) => response);
  }

  /**
   * Logs the request, passes every chunk through unchanged, and logs the aggregated
   * response when the stream completes.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The downstream chunks, unchanged.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      this.logger.info(`[${this.name}] request`, this.formatRequest(request));
      const assembler = new ResponseAssembler();
      return chain.next(request).pipe(
        tap({
          next: (chunk) => assembler.add(chunk),
          complete: () =>
            this.logger.info(`[${this.name}] response`, this.formatResponse(assembler.build())),
          error: (error: unknown) =>
            this.logger.info(
              `[${this.name}] error`,
              error instanceof Error ? error.message : String(error),
            ),
        }),
      );
    });
  }
}

function defaultRequestFormat(request: ChatRequest): LoggedRequest {
  return {
    messages: request.messages,
    options: redact(request.options) as Record<string, unknown>,
    tools: request.tools.map((tool) => tool.name),
  };
}
