import { from, type Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { Advisor, AdvisorChain } from './advisor.js';
import { Order } from './order.js';

/** Options of {@link SafeGuardAdvisor}. */
export interface SafeGuardAdvisorOptions {
  /** Words or phrases that stop the call (matched case-insensitively, as whole words). */
  sensitiveWords: readonly string[];
  /** The polite refusal sent instead of a model answer. */
  failureResponse?: string;
  /** Default `Order.HIGHEST_PRECEDENCE + 100`: outermost, before memory and the tool loop. */
  order?: number;
  /** Default `'safe-guard'`. */
  name?: string;
}

const DEFAULT_FAILURE =
  'Sorry, I cannot help with that request because it touches a topic I am not allowed to discuss. ' +
  'Could you rephrase it or ask something else?';

/**
 * Stops a call whose new user message contains a sensitive word: the model is not called,
 * and the stream is a polite refusal with finish reason `content-filter`. Only the last
 * user message is checked, so words replayed from memory do not trigger it again.
 *
 * @example
 * ```ts
 * import { ChatClient, SafeGuardAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new SafeGuardAdvisor({ sensitiveWords: ['password'] }))
 *   .build();
 * client.prompt('What is the admin password?').call().content(); // the refusal, no model call
 * ```
 */
export class SafeGuardAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  private readonly pattern: RegExp | undefined;
  private readonly refusal: readonly ChatChunk[];

  /** @param options The sensitive words, refusal text, order and name. */
  constructor(options: SafeGuardAdvisorOptions) {
    const words: unknown = options?.sensitiveWords;
    if (
      !Array.isArray(words) ||
      words.some((word) => typeof word !== 'string' || word.trim() === '')
    ) {
      throw new InvalidOptionsError({
        option: 'sensitiveWords',
        value: words,
        expected: 'an array of non-empty strings',
      });
    }
    this.name = options.name ?? 'safe-guard';
    this.order = options.order ?? Order.HIGHEST_PRECEDENCE + 100;
    this.pattern =
      options.sensitiveWords.length === 0
        ? undefined
        : new RegExp(
            `(?<![\\p{L}\\p{N}_])(?:${options.sensitiveWords.map(escape).join('|')})(?![\\p{L}\\p{N}_])`,
            'iu',
          );
    this.refusal = [
      { type: 'text-delta', text: options.failureResponse ?? DEFAULT_FAILURE },
      { type: 'finish', reason: 'content-filter' },
    ];
  }

  /**
   * Refuses without calling the model when the last user message is sensitive; otherwise
   * passes the call on unchanged.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The refusal chunks, or the downstream chunks.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    const text = request.lastUserText;
    if (this.pattern !== undefined && text !== undefined && this.pattern.test(text)) {
      return from(this.refusal);
    }
    return chain.next(request);
  }
}

function escape(word: string): string {
  return word
    .trim()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\s+/g, '\\s+');
}
