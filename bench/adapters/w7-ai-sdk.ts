import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { PacedTicker } from './w7-paced-ticker.js';
import type { SseServerAdapter } from './w7-sse-adapter.js';

const USAGE = {
  inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 34, text: 34, reasoning: undefined },
};
const HEAD: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'bench-1', modelId: 'bench-model' },
  { type: 'text-start', id: 't' },
];
const TAIL: LanguageModelV3StreamPart[] = [
  { type: 'text-end', id: 't' },
  { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
];

/** The V3 stream of one answer, its text deltas driven by the ticker; a cancel stops it. */
function pacedStream(ticker: PacedTicker): ReadableStream<LanguageModelV3StreamPart> {
  let stop = (): void => undefined;
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const part of HEAD) controller.enqueue(part);
      const handle = ticker.start({
        delta: (_k, delta) => controller.enqueue({ type: 'text-delta', id: 't', delta }),
        end: () => {
          for (const part of TAIL) controller.enqueue(part);
          controller.close();
        },
      });
      stop = () => handle.stop();
    },
    cancel() {
      stop();
    },
  });
}

/** The AI SDK: `streamText` over a `MockLanguageModelV3` → `pipeUIMessageStreamToResponse(res)`. */
export const w7AiSdkAdapter: SseServerAdapter = {
  framework: 'ai-sdk',
  label: 'streamText(MockLanguageModelV3).pipeUIMessageStreamToResponse(res)',
  handler(ticker) {
    const model = new MockLanguageModelV3({
      doStream: () => {
        // The mock records every call's options: keep it from growing over a run.
        model.doStreamCalls.length = 0;
        return Promise.resolve({ stream: pacedStream(ticker) });
      },
    });
    return (_req, res) => {
      // Its Promise settles when the response ended; errors are the bench's to see.
      streamText({ model, prompt: 'Hi' })
        .pipeUIMessageStreamToResponse(res)
        .catch((error: unknown) => console.error('W7 ai-sdk', error));
    };
  },
};
