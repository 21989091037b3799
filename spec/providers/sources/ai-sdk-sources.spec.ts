// Sources an AI SDK provider reports (`source` stream parts), through AiSdkChatModel and the
// real provider packages against a loopback server:
// - @ai-sdk/google 3.x (V3) and 2.x (V2): Gemini's grounding metadata. The stream is
//   synthetic, made here: the recorded google-text.chunks.txt with Gemini's documented
//   `groundingMetadata` added to its last chunk (no recorded grounded stream is available).
// - @ai-sdk/anthropic 3.x (V3): the recorded web search stream of fixtures/ (README.md),
//   which the package turns into a source per search result and per citation.
// The last test reads a grounded answer as a browser would: the `ai` package's transport and
// readUIMessageStream over a real HTTP server.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
// @ai-sdk/google 2.x (LanguageModelV2), installed under an alias next to 3.x.
import { createGoogleGenerativeAI as createGoogleV2 } from '@ai-sdk/google-v2';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { from, lastValueFrom } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client.js';
import { aggregate } from '../../../lib/core/aggregate.js';
import type { ChatChunk, SourceChunk } from '../../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { ChatResponse } from '../../../lib/core/chat-response.js';
import { AiSdkChatModel } from '../../../lib/providers/ai-sdk/ai-sdk-chat-model.js';
import type { AiSdkLanguageModel } from '../../../lib/providers/ai-sdk/ai-sdk-language-model.js';
import { pipeToNodeResponse } from '../../../lib/sse/index.js';
import { close, listen } from '../../sse/support/sse-test-kit.js';
import { fixtureLines, GOOGLE_TEST_KEY, sseFrames } from '../ai-sdk/support/ai-sdk-targets.js';
import { collect } from '../support/clients.js';
import { framesFromLines } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

jest.setTimeout(20_000);

const REDIRECT = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/';

/** Gemini's grounding metadata (the Gemini API's documented shape), made for this test. */
const GROUNDING = {
  webSearchQueries: ['how many r in strawberry'],
  groundingChunks: [
    { web: { uri: `${REDIRECT}AUZIYQ-strawberry-1`, title: 'wikipedia.org' } },
    { web: { uri: `${REDIRECT}AUZIYQ-strawberry-2`, title: 'merriam-webster.com' } },
    // A hostile or broken URI: never a link.
    { web: { uri: 'javascript:alert(document.cookie)', title: 'evil.example' } },
    { maps: { uri: 'https://maps.google.com/?cid=1234', title: 'Strawberry Farm' } },
  ],
  groundingSupports: [
    {
      segment: { startIndex: 0, endIndex: 15, text: 'There are **3**' },
      groundingChunkIndices: [0, 1],
    },
  ],
};

/** The recorded Gemini text stream with grounding metadata on its last chunk. */
function groundedGeminiBody(): string {
  const lines = fixtureLines('google-text.chunks.txt');
  const last = JSON.parse(lines[lines.length - 1]) as {
    candidates: Record<string, unknown>[];
  };
  last.candidates[0]['groundingMetadata'] = GROUNDING;
  return sseFrames([...lines.slice(0, -1), JSON.stringify(last)]);
}

const GEMINI_SOURCES = [
  { sourceType: 'url', url: `${REDIRECT}AUZIYQ-strawberry-1`, title: 'wikipedia.org' },
  { sourceType: 'url', url: `${REDIRECT}AUZIYQ-strawberry-2`, title: 'merriam-webster.com' },
  { sourceType: 'url', url: 'https://maps.google.com/?cid=1234', title: 'Strawberry Farm' },
];

const sourcesOf = (chunks: ChatChunk[]): SourceChunk[] =>
  chunks.filter((chunk): chunk is SourceChunk => chunk.type === 'source');

const request = ChatRequest.create({
  messages: [{ role: 'user', content: 'How many r in strawberry?' }],
});

describe('AiSdkChatModel: sources the provider reports', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(() => server.close());

  async function run(
    model: AiSdkChatModel,
  ): Promise<{ chunks: ChatChunk[]; response: ChatResponse }> {
    const chunks = await collect(model.stream(request));
    return { chunks, response: await lastValueFrom(from(chunks).pipe(aggregate())) };
  }

  const googleV3 = (): AiSdkLanguageModel =>
    createGoogleGenerativeAI({ apiKey: GOOGLE_TEST_KEY, baseURL: server.url })(
      'gemini-3-pro-preview',
    );
  const googleV2 = (): AiSdkLanguageModel =>
    createGoogleV2({ apiKey: GOOGLE_TEST_KEY, baseURL: server.url })('gemini-2.5-flash');

  it.each([
    ['@ai-sdk/google 3.x (V3)', googleV3, 'v3'],
    ['@ai-sdk/google 2.x (V2)', googleV2, 'v2'],
  ])(
    '%s: grounding chunks become URL sources; a non-http(s) URI is dropped',
    async (_name, make, version) => {
      server.enqueue({ kind: 'sse', body: groundedGeminiBody() });
      const languageModel = make();
      expect(languageModel.specificationVersion).toBe(version);
      const model = new AiSdkChatModel({ model: languageModel });

      const { chunks, response } = await run(model);

      const sources = sourcesOf(chunks);
      // The package's own ids: kept, one per source.
      expect(sources.map(({ id: _id, ...source }) => source)).toEqual(
        GEMINI_SOURCES.map((source) => ({ type: 'source', ...source })),
      );
      const ids = sources.map((source) => source.id);
      expect(new Set(ids).size).toBe(3);
      expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
      expect(response.metadata.sources).toEqual(
        sources.map(({ type: _type, ...source }) => source),
      );
      expect(response.text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
      expect(response.finishReason).toBe('stop');
    },
  );

  it('@ai-sdk/anthropic: a URL the package reports many times (result and citations) is one source', async () => {
    const fixture = join(__dirname, 'fixtures', 'anthropic-web-search-tool.1.chunks.txt');
    const lines = readFileSync(fixture, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    server.enqueue({ kind: 'sse', body: framesFromLines('anthropic', lines) });
    const model = new AiSdkChatModel({
      model: createAnthropic({ apiKey: 'sk-ant-test', baseURL: server.url })('claude-sonnet-4-0'),
    });

    const { chunks, response } = await run(model);

    // The package sends 10 sources for the search results and 14 for the citations, which
    // cite 4 of those results again: 10 distinct URLs, in the order of the search results.
    const urls = sourcesOf(chunks).map((source) => (source.sourceType === 'url' ? source.url : ''));
    expect(urls).toEqual([
      'https://www.crescendo.ai/news/latest-ai-news-and-updates',
      'https://future.forem.com/junyu_fang_a216509a97501d/fang-junyus-technology-weekly-september-26-2025-2ndd',
      'https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/',
      'https://www.techradar.com/news/archive',
      'https://9to5mac.com/2025/09/22/ios-26-1-beta-1/',
      'https://www.cnbc.com/2025/09/09/live-updates-apple-event-iphone17-airpods-ios26.html',
      'https://future.forem.com/om_shree_0709/major-tech-news-september-25-2025-5h38',
      'https://9to5mac.com/2025/09/16/ios-26-1-beta-is-coming-when-to-expect-the-next-update/',
      'https://scitechdaily.com/',
      'https://www.cnbc.com/technology/',
    ]);
    expect(sourcesOf(chunks)[0]).toMatchObject({
      title: 'The Latest AI News and AI Breakthroughs that Matter Most: 2025 | News',
    });
    expect(response.metadata.sources).toHaveLength(10);
    expect(response.text).toMatch(/^Based on my search results, here are the key tech news/);
  });

  it('a browser reading the UI message stream sees the grounded answer with its source-url parts', async () => {
    server.enqueue({ kind: 'sse', body: groundedGeminiBody() });
    const client = ChatClient.builder(new AiSdkChatModel({ model: googleV3() })).build();
    const http: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        pipeToNodeResponse(client.prompt('How many r in strawberry?').stream().chunks(), res, {
          protocol: 'ai-sdk-ui',
          heartbeat: false,
        }),
      );
    });
    const url = await listen(http);
    try {
      const transport = new DefaultChatTransport({ api: `${url}/api/chat` });
      const stream = await transport.sendMessages({
        trigger: 'submit-message',
        chatId: 'chat-1',
        messageId: undefined,
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'strawberry?' }] }],
        abortSignal: undefined,
      });
      let message: UIMessage | undefined;
      for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;

      const parts = message!.parts;
      const sourceParts = parts.filter((part) => part.type === 'source-url');
      expect(sourceParts.map((part) => ({ url: part.url, title: part.title }))).toEqual(
        GEMINI_SOURCES.map(({ url: href, title }) => ({ url: href, title })),
      );
      expect(
        parts.some((part) => part.type === 'source-url' && part.url.startsWith('javascript:')),
      ).toBe(false);
      const text = parts
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('');
      expect(text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    } finally {
      await close(http);
    }
  });
});
