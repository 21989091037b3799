// CitedSources (rx-advisors/provider-kit): the rule every adapter applies to the sources a
// provider reports. The adapters' behaviour on real streams is tested in
// spec/providers/sources/; here the rule itself, and the AI SDK bridge's document sources
// (no installed provider package streams a document source for a plain request: Gemini
// streams URL sources only, @ai-sdk/anthropic needs a cited PDF in the request).
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { lastValueFrom, toArray } from 'rxjs';
import type { ChatChunk } from '../../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import { AiSdkChatModel } from '../../../lib/providers/ai-sdk/ai-sdk-chat-model.js';
import { CitedSources, type ChunkSink } from '../../../lib/providers/kit/index.js';

function recorder(): { sink: ChunkSink; chunks: ChatChunk[] } {
  const chunks: ChatChunk[] = [];
  return { sink: { next: (chunk) => chunks.push(chunk) }, chunks };
}

describe('CitedSources', () => {
  it('sends each http(s) URL once, with the URL as id unless the provider names one', () => {
    const { sink, chunks } = recorder();
    const sources = new CitedSources();
    sources.url({ url: 'https://example.com/a', title: 'A' }, sink);
    sources.url({ url: 'https://example.com/a', title: 'A again' }, sink);
    sources.url({ url: 'http://example.com/b', id: 'src-7', title: '' }, sink);
    sources.url({ url: 'https://example.com/c', title: null }, sink);

    expect(chunks).toEqual([
      {
        type: 'source',
        sourceType: 'url',
        id: 'https://example.com/a',
        url: 'https://example.com/a',
        title: 'A',
      },
      { type: 'source', sourceType: 'url', id: 'src-7', url: 'http://example.com/b' },
      {
        type: 'source',
        sourceType: 'url',
        id: 'https://example.com/c',
        url: 'https://example.com/c',
      },
    ]);
  });

  it.each([
    'javascript:alert(1)',
    ' https://example.com/leading-space',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox',
    '//example.com/protocol-relative',
    '',
  ])('drops %j: only http(s) URLs become links', (href) => {
    const { sink, chunks } = recorder();
    new CitedSources().url({ url: href, title: 'T' }, sink);
    expect(chunks).toEqual([]);
  });

  it('sends each document once by id; an empty filename is left out', () => {
    const { sink, chunks } = recorder();
    const sources = new CitedSources();
    sources.document(
      { id: 'f1', mediaType: 'application/pdf', title: 'ai.pdf', filename: 'ai.pdf' },
      sink,
    );
    sources.document(
      { id: 'f1', mediaType: 'application/pdf', title: 'ai.pdf', filename: 'ai.pdf' },
      sink,
    );
    sources.document({ id: 'f2', mediaType: 'text/plain', title: 'Notes', filename: '' }, sink);

    expect(chunks).toEqual([
      {
        type: 'source',
        sourceType: 'document',
        id: 'f1',
        mediaType: 'application/pdf',
        title: 'ai.pdf',
        filename: 'ai.pdf',
      },
      { type: 'source', sourceType: 'document', id: 'f2', mediaType: 'text/plain', title: 'Notes' },
    ]);
  });

  it('tells repeats apart per instance (one per model call)', () => {
    const { sink, chunks } = recorder();
    new CitedSources().url({ url: 'https://example.com/a' }, sink);
    new CitedSources().url({ url: 'https://example.com/a' }, sink);
    expect(chunks).toHaveLength(2);
  });
});

describe('AiSdkChatModel: document source parts', () => {
  it('become document sources with the provider id; provider metadata is not copied', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      {
        type: 'source',
        sourceType: 'document',
        id: 'doc-1',
        mediaType: 'application/pdf',
        title: 'Handbook',
        filename: 'handbook.pdf',
        providerMetadata: { anthropic: { citedText: 'secret-ish quote' } },
      },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Per the handbook.' },
      { type: 'text-end', id: 't' },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
      },
    ];
    const model = new AiSdkChatModel({
      model: new MockLanguageModelV3({
        doStream: () => Promise.resolve({ stream: convertArrayToReadableStream(parts) }),
      }),
    });
    const chunks = await lastValueFrom(
      model
        .stream(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] }))
        .pipe(toArray()),
    );
    expect(chunks.filter((chunk) => chunk.type === 'source')).toEqual([
      {
        type: 'source',
        sourceType: 'document',
        id: 'doc-1',
        mediaType: 'application/pdf',
        title: 'Handbook',
        filename: 'handbook.pdf',
      },
    ]);
  });
});
