import { defer, tap, type Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import { ResponseAssembler } from '../core/response-assembler.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES, narrowOrder } from '../advisor-api/validate-advisor-identity.js';
import { redact } from '../core/redact.js';
import { errorMessageOf } from '../errors/error-details.js';

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

/**
 * Options of {@link LoggerAdvisor}.
 *
 * @example
 * ```ts
 * import { LoggerAdvisor, type LoggerAdvisorOptions } from 'rx-advisors';
 * const options: LoggerAdvisorOptions = { logger: console, maxDepth: 16 };
 * new LoggerAdvisor(options);
 * ```
 */
export interface LoggerAdvisorOptions {
  /** Where to log; default `console`. */
  logger?: AdvisorLogger;
  /** Default `Order.DEFAULT` (0): inside the tool loop, so every model call is logged. */
  order?: number;
  /** Default `'logger'`. */
  name?: string;
  /** Turns a request into what is logged; default: messages, options (secrets redacted), tool names. */
  formatRequest?: (request: ChatRequest) => unknown;
  /**
   * Turns the aggregated response (the partial one of a cancelled call) into what is
   * logged; default: the response itself.
   */
  formatResponse?: (response: ChatResponse) => unknown;
  /**
   * How deep the default request format copies the options: objects nested deeper are
   * logged as `'[truncated]'` (secrets are redacted at every depth either way). Default 32;
   * `Infinity` copies everything.
   */
  maxDepth?: number;
}

/** The defaults of {@link LoggerAdvisorOptions}; `logger` is read when the advisor is built. */
const LOGGER_DEFAULTS: Readonly<
  Required<Pick<LoggerAdvisorOptions, 'order' | 'name' | 'maxDepth'>>
> = { order: Order.DEFAULT, name: 'logger', maxDepth: 32 };

const LOGGER_RULES: OptionRules<LoggerAdvisorOptions> = {
  logger: Rules.custom(
    'an object with an info(message, details) method',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { info?: unknown }).info === 'function',
  ),
  ...ADVISOR_IDENTITY_RULES,
  order: narrowOrder(Rules.integer(Order.HIGHEST_PRECEDENCE, Order.LOWEST_PRECEDENCE)),
  formatRequest: Rules.func,
  formatResponse: Rules.func,
  maxDepth: Rules.custom(
    'a positive integer or Infinity',
    (value) => value === Infinity || (Number.isInteger(value) && (value as number) > 0),
  ),
};

/**
 * Logs each request and the aggregated response of each model call. Ordered inside the
 * tool loop by default, so it sees every round. Every call gets exactly one final entry:
 * `[name] response` (completed), `[name] error` (the error's message) or `[name] cancelled`
 * (the caller unsubscribed first; the details are the response streamed so far, through
 * `formatResponse`, finish reason `'other'`). Secrets never reach the log: option
 * fields whose names look like keys, tokens, secrets or headers are redacted at any
 * depth (cycles are logged as `'[circular]'`, objects past `maxDepth` as `'[truncated]'`),
 * and the SDK client (which holds the API key) is never part of a request. Message
 * texts are logged as they are.
 *
 * @example
 * ```ts partial
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

  /**
   * @param options Logger, order, name, formatters and redaction depth; all optional.
   * @throws InvalidOptionsError When an option is invalid.
   */
  constructor(options: LoggerAdvisorOptions = {}) {
    const settings = withDefaults(LOGGER_DEFAULTS, validateOptions(options, LOGGER_RULES));
    this.name = settings.name;
    this.order = settings.order;
    this.logger = settings.logger ?? console;
    const { maxDepth } = settings;
    this.formatRequest =
      settings.formatRequest ?? ((request) => defaultRequestFormat(request, maxDepth));
    this.formatResponse = settings.formatResponse ?? ((response) => response);
  }

  /**
   * Logs the request, passes every chunk through unchanged, and logs one final entry: the
   * aggregated response (`response`) when the stream completes, the error message (`error`)
   * when it fails, or the response so far (`cancelled`) when the caller unsubscribes first.
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
            this.logger.info(`[${this.name}] error`, errorMessageOf(error)),
          // Only when the caller leaves before complete or error: what streamed until then.
          unsubscribe: () =>
            this.logger.info(`[${this.name}] cancelled`, this.formatResponse(assembler.build())),
        }),
      );
    });
  }
}

function defaultRequestFormat(request: ChatRequest, maxDepth: number): LoggedRequest {
  return {
    messages: request.messages,
    options: redact(request.options, maxDepth) as Record<string, unknown>,
    tools: request.tools.map((tool) => tool.name),
  };
}
