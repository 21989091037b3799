import type { RequestListener } from 'node:http';
import type { Framework } from '../harness/types.js';
import type { PacedTicker } from './w7-paced-ticker.js';

/**
 * How one framework serves W7's answers over `node:http`: the AI SDK UI message stream
 * (`x-vercel-ai-ui-message-stream: v1`), one answer of the ticker's deltas per request.
 */
export interface SseServerAdapter {
  readonly framework: Framework;
  /** What serves the answer in this framework. */
  readonly label: string;
  /**
   * The request handler of one run: every request is one answer whose model output the
   * ticker drives (built once per run, as a server builds its client once).
   */
  handler(ticker: PacedTicker): RequestListener;
}
