import { map, type Observable } from 'rxjs';
import type { Advisor } from '../advisor/advisor.js';
import { aggregate } from '../core/aggregate.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatResponse } from '../core/chat-response.js';

/**
 * Runs a call's chain, optionally with extra advisors for this call only.
 * @internal
 */
export type RunChain = (extraAdvisors?: readonly Advisor[]) => Observable<ChatChunk>;

/**
 * The result side of `prompt(...).call()`: each method returns a cold Observable of one
 * value. `call()` is `stream()` aggregated: one code path.
 *
 * @example
 * ```ts
 * client.prompt('Hi').call().content().subscribe((text) => console.log(text));
 * client.prompt('Hi').call().chatResponse().subscribe((r) => console.log(r.usage));
 * ```
 */
export class CallResponseSpec {
  /** @internal */
  constructor(private readonly run: RunChain) {}

  /**
   * The whole response.
   * @returns A cold Observable of one `ChatResponse`.
   */
  chatResponse(): Observable<ChatResponse> {
    return this.run().pipe(aggregate());
  }

  /**
   * The answer text.
   * @returns A cold Observable of one string.
   */
  content(): Observable<string> {
    return this.chatResponse().pipe(map((response) => response.text));
  }
}
