import { filter, map, type Observable } from 'rxjs';
import type { ChatChunk, TextDeltaChunk } from '../core/chat-chunk.js';
import type { RunChain } from './call-response-spec.js';

/**
 * The result side of `prompt(...).stream()`: cold Observables that stream as the model does.
 *
 * @example
 * ```ts
 * client.prompt('Tell me a story').stream().content().subscribe((delta) => process.stdout.write(delta));
 * ```
 */
export class StreamResponseSpec {
  /** @internal */
  constructor(private readonly run: RunChain) {}

  /**
   * Every chunk that leaves the outermost advisor.
   * @returns A cold Observable of chunks ending with `finish`.
   */
  chunks(): Observable<ChatChunk> {
    return this.run();
  }

  /**
   * The text deltas only.
   * @returns A cold Observable of strings.
   */
  content(): Observable<string> {
    return this.run().pipe(
      filter((chunk): chunk is TextDeltaChunk => chunk.type === 'text-delta'),
      map((chunk) => chunk.text),
    );
  }
}
