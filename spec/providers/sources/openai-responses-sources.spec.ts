// Sources the OpenAI Responses API reports (url_citation and file_citation annotations),
// through the real `openai` client against a loopback server replaying recorded streams
// (fixtures/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client.js';
import { aggregate } from '../../../lib/core/aggregate.js';
import type { ChatChunk, SourceChunk } from '../../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { ChatResponse } from '../../../lib/core/chat-response.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { tool } from '../../../lib/tools/tool-fn.js';
import { collect, openAiClient } from '../support/clients.js';
import { framesFromLines } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

jest.setTimeout(20_000);

const FIXTURES = join(__dirname, 'fixtures');

function lines(file: string): string[] {
  return readFileSync(join(FIXTURES, file), 'utf8')
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

describe('OpenAiChatModel (responses): sources from annotations', () => {
  let server: ReplayServer;
  let model: OpenAiChatModel;
  beforeAll(async () => {
    server = await startReplayServer();
    model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-test',
      api: 'responses',
    });
  });
  afterAll(() => server.close());

  const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Tech news today?' }] });

  async function replay(
    payloads: readonly string[],
  ): Promise<{ chunks: ChatChunk[]; response: ChatResponse }> {
    server.enqueue({ kind: 'sse', body: framesFromLines('openai-responses', payloads) });
    const chunks = await collect(model.stream(request));
    return { chunks, response: await lastValueFrom(from(chunks).pipe(aggregate())) };
  }

  it('web search: each cited URL once, in citation order, with its title', async () => {
    const { chunks, response } = await replay(lines('openai-web-search-tool.1.chunks.txt'));

    // 12 url_citation annotations cite 7 distinct pages.
    const expected = [
      url(
        'https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-customers-personal-data/?utm_source=openai',
        'Petco confirms security lapse exposed customers’ personal data | TechCrunch',
      ),
      url(
        'https://techcrunch.com/2025/12/05/the-new-york-times-is-suing-perplexity-for-copyright-infringement/?utm_source=openai',
        'The New York Times is suing Perplexity for copyright infringement | TechCrunch',
      ),
      url(
        'https://techcrunch.com/2025/12/05/meta-signs-commercial-ai-data-agreements-with-publishers-to-offer-real-time-news-on-meta-ai/?utm_source=openai',
        'Meta signs commercial AI data agreements with publishers to offer real-time news on Meta AI | TechCrunch',
      ),
      url(
        'https://techcrunch.com/2025/12/05/netflix-to-acquire-warner-bros-in-a-disruptive-deal-valued-at-82-7b/?utm_source=openai',
        'Netflix to acquire Warner Bros. in a disruptive deal valued at $82.7B | TechCrunch',
      ),
      url(
        'https://www.wired.com/story/the-big-interview-2025-recap?utm_source=openai',
        "Check Out Highlights From WIRED's Big Interview Event",
      ),
      url(
        'https://techstartups.com/2025/12/05/technology-news-today-the-latest-in-tech-ai-startup-news-december-5-2025/?utm_source=openai',
        'Technology News Today – The Latest in Tech, AI & Startup News, December 5, 2025 - Tech Startups',
      ),
      url(
        'https://finance.yahoo.com/news/ai-coding-startup-vercel-raises-163055044.html?utm_source=openai',
        'AI coding startup Vercel raises $300 million, valued at $9.3 billion',
      ),
    ];
    expect(sourcesOf(chunks)).toEqual(expected);
    expect(response.metadata.sources).toEqual(expected.map(({ type: _type, ...source }) => source));

    // A source arrives where the API annotates, between text deltas; the text is unchanged.
    const firstSource = chunks.findIndex((chunk) => chunk.type === 'source');
    expect(chunks.slice(0, firstSource).some((chunk) => chunk.type === 'text-delta')).toBe(true);
    expect(chunks.slice(firstSource).some((chunk) => chunk.type === 'text-delta')).toBe(true);
    expect(response.text).toMatch(/^I checked today’s tech headlines/);
    expect(response.text).toHaveLength(3645);
    expect(response.finishReason).toBe('stop');
  });

  it('file search: a cited file is one document source (id: the file id, type from its name)', async () => {
    const { chunks, response } = await replay(lines('openai-file-search-tool.1.chunks.txt'));

    const document: SourceChunk = {
      type: 'source',
      sourceType: 'document',
      id: 'file-Ebzhf8H4DPGPr9pUhr7n7v',
      mediaType: 'application/pdf',
      title: 'ai.pdf',
      filename: 'ai.pdf',
    };
    // Two file_citation annotations of the same file.
    expect(sourcesOf(chunks)).toEqual([document]);
    expect(response.metadata.sources).toEqual([
      {
        sourceType: 'document',
        id: 'file-Ebzhf8H4DPGPr9pUhr7n7v',
        mediaType: 'application/pdf',
        title: 'ai.pdf',
        filename: 'ai.pdf',
      },
    ]);
    expect(response.text).toMatch(/^According to the document, an embedding model/);
  });

  it('drops a citation whose URL is not http(s); an empty title is left out', async () => {
    // The recorded web search stream with three annotations rewritten (synthetic, made here):
    // a javascript: URL, a data: URL and an https URL without a title.
    const payloads = lines('openai-web-search-tool.1.chunks.txt');
    const annotated = payloads
      .map((line, index) => ({
        index,
        event: JSON.parse(line) as { type: string; annotation?: unknown },
      }))
      .filter(({ event }) => event.type === 'response.output_text.annotation.added');
    const rewrites = [
      { type: 'url_citation', url: 'javascript:alert(document.cookie)', title: 'Click me' },
      { type: 'url_citation', url: 'data:text/html,<script>alert(1)</script>', title: 'Data' },
      { type: 'url_citation', url: 'HTTPS://example.com/untitled', title: '' },
    ];
    const rewritten = [...payloads];
    rewrites.forEach((annotation, n) => {
      const { index, event } = annotated[n];
      rewritten[index] = JSON.stringify({
        ...event,
        annotation: { ...(event.annotation as object), ...annotation },
      });
    });

    const { chunks } = await replay(rewritten);

    const urls = sourcesOf(chunks).map((source) => (source.sourceType === 'url' ? source.url : ''));
    expect(urls).not.toContain('javascript:alert(document.cookie)');
    expect(urls.some((href) => href.startsWith('data:'))).toBe(false);
    expect(sourcesOf(chunks)[0]).toEqual({
      type: 'source',
      sourceType: 'url',
      id: 'HTTPS://example.com/untitled',
      url: 'HTTPS://example.com/untitled',
    });
  });

  it('through ChatClient with the tool loop: the sources reach the caller and the response', async () => {
    server.enqueue({
      kind: 'sse',
      body: framesFromLines('openai-responses', lines('openai-web-search-tool.1.chunks.txt')),
    });
    const client = ChatClient.builder(model)
      .defaultTools(
        tool({
          name: 'clock',
          description: 'The current time',
          parameters: { type: 'object', properties: {} },
          execute: () => '12:00',
        }),
      )
      .build();

    const response = await lastValueFrom(client.prompt('Tech news today?').call().chatResponse());

    expect(response.metadata.sources?.map((source) => source.id)).toHaveLength(7);
    expect(response.metadata.sources?.[0]).toEqual({
      sourceType: 'url',
      id: 'https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-customers-personal-data/?utm_source=openai',
      url: 'https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-customers-personal-data/?utm_source=openai',
      title: 'Petco confirms security lapse exposed customers’ personal data | TechCrunch',
    });
    // The tool loop ran the round: the model was offered the tool.
    expect(server.requests.at(-1)?.body.tools).toHaveLength(1);
  });

  it('a stream without annotations has no source and no metadata.sources', async () => {
    const payloads = lines('openai-web-search-tool.1.chunks.txt').filter(
      (line) => !line.includes('"response.output_text.annotation.added"'),
    );
    const { chunks, response } = await replay(payloads);
    expect(sourcesOf(chunks)).toEqual([]);
    expect(response.metadata.sources).toBeUndefined();
  });
});
