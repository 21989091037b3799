// Sources Anthropic reports (citations_delta with web_search_result_location), through the
// real `@anthropic-ai/sdk` client against a loopback server replaying a recorded stream
// (fixtures/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import type { ChatChunk, SourceChunk } from '../../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { ChatResponse } from '../../../lib/core/chat-response.js';
import { AnthropicChatModel } from '../../../lib/providers/anthropic/index.js';
import { anthropicClient, collect } from '../support/clients.js';
import { framesFromLines } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

jest.setTimeout(20_000);

const FIXTURE = join(__dirname, 'fixtures', 'anthropic-web-search-tool.1.chunks.txt');

function lines(): string[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

const sourcesOf = (chunks: ChatChunk[]): SourceChunk[] =>
  chunks.filter((chunk): chunk is SourceChunk => chunk.type === 'source');

const url = (href: string, title: string): SourceChunk => ({
  type: 'source',
  sourceType: 'url',
  id: href,
  url: href,
  title,
});

describe('AnthropicChatModel: sources from web search citations', () => {
  let server: ReplayServer;
  let model: AnthropicChatModel;
  beforeAll(async () => {
    server = await startReplayServer();
    model = new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' });
  });
  afterAll(() => server.close());

  const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Tech news today?' }] });

  async function replay(
    payloads: readonly string[],
  ): Promise<{ chunks: ChatChunk[]; response: ChatResponse }> {
    server.enqueue({ kind: 'sse', body: framesFromLines('anthropic', payloads) });
    const chunks = await collect(model.stream(request));
    return { chunks, response: await lastValueFrom(from(chunks).pipe(aggregate())) };
  }

  it('each cited URL once, in citation order; search results nobody cites are not sources', async () => {
    const { chunks, response } = await replay(lines());

    // 14 citations cite 4 of the 10 search results.
    const expected = [
      url(
        'https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/',
        'The all-new Apple Ginza opens this Friday, September 26, in Tokyo - Apple',
      ),
      url(
        'https://future.forem.com/junyu_fang_a216509a97501d/fang-junyus-technology-weekly-september-26-2025-2ndd',
        "Fang Junyu's Technology Weekly - September 26, 2025 - Future",
      ),
      url(
        'https://future.forem.com/om_shree_0709/major-tech-news-september-25-2025-5h38',
        '📰 Major Tech News: September 25, 2025 - Future',
      ),
      url(
        'https://9to5mac.com/2025/09/22/ios-26-1-beta-1/',
        'Apple releases first iOS 26.1 developer beta for iPhone - 9to5Mac',
      ),
    ];
    expect(sourcesOf(chunks)).toEqual(expected);
    expect(response.metadata.sources).toEqual(expected.map(({ type: _type, ...source }) => source));

    // The server-run web search is no tool call of ours; the text is unchanged.
    expect(response.message.toolCalls).toBeUndefined();
    expect(response.text).toMatch(/^Based on my search results, here are the key tech news/);
    expect(response.text).toHaveLength(2402);
    expect(response.finishReason).toBe('stop');
  });

  it('drops a citation whose URL is not http(s); a null title is left out', async () => {
    // The recorded stream with its first two citations rewritten (synthetic, made here).
    const payloads = lines();
    const cited = payloads
      .map((line, index) => ({
        index,
        event: JSON.parse(line) as { delta?: { type?: string; citation?: object } },
      }))
      .filter(({ event }) => event.delta?.type === 'citations_delta');
    const rewrites = [
      { url: 'javascript:alert(document.cookie)' },
      { url: 'https://example.com/untitled', title: null },
    ];
    const rewritten = [...payloads];
    rewrites.forEach((rewrite, n) => {
      const { index, event } = cited[n];
      rewritten[index] = JSON.stringify({
        ...event,
        delta: { ...event.delta, citation: { ...event.delta!.citation, ...rewrite } },
      });
    });

    const { chunks } = await replay(rewritten);

    const sources = sourcesOf(chunks);
    expect(
      sources.some((source) => source.sourceType === 'url' && source.url.startsWith('javascript:')),
    ).toBe(false);
    expect(sources[0]).toEqual({
      type: 'source',
      sourceType: 'url',
      id: 'https://example.com/untitled',
      url: 'https://example.com/untitled',
    });
  });
});
