import { Observable } from 'rxjs';
import { ChatClient, type ChatChunk, type ChatModel } from 'rx-advisors';
import { pipeToNodeResponse } from 'rx-advisors/sse';
import type { PacedTicker } from './w7-paced-ticker.js';
import type { SseServerAdapter } from './w7-sse-adapter.js';

const USAGE: ChatChunk = {
  type: 'usage',
  usage: { inputTokens: 12, outputTokens: 34, totalTokens: 46 },
};
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };

/** A model whose text deltas the ticker drives; unsubscribing stops its stream. */
function pacedModel(ticker: PacedTicker): ChatModel {
  return {
    provider: 'bench',
    stream: () =>
      new Observable<ChatChunk>((subscriber) => {
        const handle = ticker.start({
          delta: (_k, text) => subscriber.next({ type: 'text-delta', text }),
          end: () => {
            subscriber.next(USAGE);
            subscriber.next(FINISH);
            subscriber.complete();
          },
        });
        return () => handle.stop();
      }),
  };
}

/** rx-advisors: `ChatClient` (no advisors) → `pipeToNodeResponse(…, { protocol: 'ai-sdk-ui' })`, defaults otherwise. */
export const w7RxAdvisorsAdapter: SseServerAdapter = {
  framework: 'rx-advisors',
  label: "client.prompt().stream().chunks() → pipeToNodeResponse(res, { protocol: 'ai-sdk-ui' })",
  handler(ticker) {
    const client = ChatClient.create(pacedModel(ticker));
    return (_req, res) => {
      pipeToNodeResponse(client.prompt('Hi').stream().chunks(), res, { protocol: 'ai-sdk-ui' });
    };
  },
};
