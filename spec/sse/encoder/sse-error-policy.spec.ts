// What leaves the server for texts that come from errors (issue 13.2): retry reasons and tool
// error results follow `errorMessage` like the error event, in both protocols.
import { from } from 'rxjs';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import { ChatClient } from '../../../lib/client/chat-client';
import { RetryAdvisor } from '../../../lib/index';
import { ProviderError } from '../../../lib/errors/provider-error';
import {
  SAFE_RETRY_REASON,
  SAFE_TOOL_ERROR,
  toServerSentEvents,
  type SseErrorMessage,
  type SseErrorSource,
  type SseProtocol,
} from '../../../lib/sse';
import { MockChatModel } from '../../../lib/testing';
import { framesText, parseSse } from '../support/sse-test-kit';

const SECRET = 'org-4711 https://llm.internal.example/v1?api_key=sk-secret';

/** A chat whose first model call fails with a provider error naming secrets, then succeeds. */
function retriedChunks() {
  const model = MockChatModel.script([
    {
      error: new ProviderError({
        provider: 'openai',
        message: `429 rate limited for ${SECRET}`,
        status: 429,
        retryable: true,
      }),
    },
    { text: 'Hello.' },
  ]);
  const client = ChatClient.builder(model)
    .defaultAdvisors(new RetryAdvisor({ maxAttempts: 2, backoff: { initialDelay: 1 } }))
    .build();
  return client.prompt('Hi').stream().chunks();
}

async function encode(
  chunks: ChatChunk[] | ReturnType<typeof retriedChunks>,
  protocol: SseProtocol,
  errorMessage?: SseErrorMessage,
): Promise<string> {
  const chunks$ = Array.isArray(chunks) ? from(chunks) : chunks;
  return framesText(
    chunks$.pipe(
      toServerSentEvents({
        protocol,
        heartbeat: false,
        ...(errorMessage === undefined ? {} : { errorMessage }),
      }),
    ),
  );
}

/** The retry reason each protocol sent. */
function retryReasons(text: string, protocol: SseProtocol): string[] {
  const { events } = parseSse(text);
  if (protocol === 'rx-advisors') {
    return events
      .filter((event) => event.event === 'retry')
      .map((event) => (JSON.parse(event.data) as { reason: string }).reason);
  }
  return events
    .filter((event) => event.data.startsWith('{"type":"data-retry"'))
    .map((event) => (JSON.parse(event.data) as { data: { reason: string } }).data.reason);
}

const toolError: ChatChunk[] = [
  { type: 'tool-result', id: 'c1', name: 'db', content: `connect ${SECRET} failed`, isError: true },
  { type: 'tool-result', id: 'c2', name: 'db', content: 'ok rows: 3' },
  { type: 'finish', reason: 'stop' },
];

describe.each<SseProtocol>(['rx-advisors', 'ai-sdk-ui'])('errorMessage in %s', (protocol) => {
  it("a retry after a provider error sends the safe reason by default, never the provider's text", async () => {
    const text = await encode(retriedChunks(), protocol);
    expect(retryReasons(text, protocol)).toEqual([SAFE_RETRY_REASON]);
    expect(text).not.toContain('sk-secret');
    expect(text).not.toContain('org-4711');
  });

  it("sends the provider's text as the retry reason only with errorMessage: 'raw'", async () => {
    const text = await encode(retriedChunks(), protocol, 'raw');
    expect(retryReasons(text, protocol)).toEqual([expect.stringContaining('sk-secret')]);
  });

  it('asks an errorMessage function, with the retry chunk, and falls back when it throws', async () => {
    const asked: [unknown, SseErrorSource][] = [];
    const text = await encode(retriedChunks(), protocol, (error, source) => {
      asked.push([error, source]);
      return source.kind === 'retry' ? `retrying (${source.chunk.advisor})` : 'failed';
    });
    expect(asked).toEqual([
      [
        expect.stringContaining('sk-secret'),
        { kind: 'retry', chunk: expect.objectContaining({ type: 'retry', attempt: 2 }) },
      ],
    ]);
    expect(retryReasons(text, protocol)).toEqual(['retrying (retry)']);
    const throwing = await encode(retriedChunks(), protocol, () => {
      throw new Error('bug');
    });
    expect(retryReasons(throwing, protocol)).toEqual([SAFE_RETRY_REASON]);
  });

  it('a tool error result goes out with the safe text; a successful result unchanged', async () => {
    const text = await encode(toolError, protocol);
    expect(text).not.toContain('sk-secret');
    expect(text).toContain(JSON.stringify(SAFE_TOOL_ERROR));
    expect(text).toContain('ok rows: 3');
    expect(await encode(toolError, protocol, 'raw')).toContain('sk-secret');
  });
});
