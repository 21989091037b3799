import { EMPTY, lastValueFrom, map, of, throwError, toArray } from 'rxjs';
import {
  ChatClient,
  ChatClientDocumentReranker,
  InvalidOptionsError,
  RetrievalAugmentationAdvisor,
  RewriteQueryTransformer,
  TopKDocumentPostProcessor,
  type DocumentPostProcessor,
  type DocumentRetriever,
  type Query,
  type RagRetrieval,
  type ScoredDocument,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const doc = (id: string, score: number): ScoredDocument => ({
  id,
  text: `Text of ${id}.`,
  metadata: {},
  score,
});
const fixed = (...documents: ScoredDocument[]): DocumentRetriever => ({
  retrieve: () => of(documents),
});
const answer = () =>
  MockChatModel.script([{ text: 'OK.', usage: { inputTokens: 50, outputTokens: 2 } }]);
const ids = (documents: readonly ScoredDocument[]) => documents.map((d) => d.id);

/** A processor that logs what it got and passes on `f` of it. */
function logging(
  log: { query: Query; ids: string[] }[],
  f: (documents: readonly ScoredDocument[]) => readonly ScoredDocument[] = (d) => d,
): DocumentPostProcessor {
  return {
    process: (query, documents) => {
      log.push({ query, ids: ids(documents) });
      return of(f(documents));
    },
  };
}

async function run(
  options: Partial<ConstructorParameters<typeof RetrievalAugmentationAdvisor>[0]>,
  question = 'Refunds?',
) {
  const model = answer();
  const records: RagRetrieval[] = [];
  const rag = new RetrievalAugmentationAdvisor({
    documentRetrievers: [fixed(doc('a', 0.9), doc('b', 0.5), doc('c', 0.2))],
    onRetrieved: (r) => records.push(r),
    ...options,
  });
  const client = ChatClient.builder(model).defaultAdvisors(rag).build();
  const chunks = await lastValueFrom(client.prompt(question).stream().chunks().pipe(toArray()));
  const prompt = model.requests[0]?.messages.at(-1)?.content ?? '';
  return { model, record: records[0], chunks, prompt };
}

describe('RetrievalAugmentationAdvisor: documentPostProcessors', () => {
  it('run in order after the joiner, each on the previous output; the record and the prompt get the result', async () => {
    const log: { query: Query; ids: string[] }[] = [];
    const { record, prompt } = await run({
      // Two retrievers with an overlap: the processors see the joined, deduplicated list.
      documentRetrievers: [
        fixed(doc('a', 0.9), doc('b', 0.5)),
        fixed(doc('b', 0.6), doc('c', 0.2)),
      ],
      documentPostProcessors: [
        logging(log, (d) => [...d].reverse()),
        logging(log, (d) => d.slice(0, 2)),
      ],
    });
    expect(log.map((l) => l.ids)).toEqual([
      ['a', 'b', 'c'],
      ['c', 'b', 'a'],
    ]);
    expect(ids(record?.documents ?? [])).toEqual(['c', 'b']);
    expect(prompt).toContain('Text of c.\nText of b.');
    expect(prompt).not.toContain('Text of a.');
  });

  it('get the transformed search query with the conversation and the call context', async () => {
    const log: { query: Query; ids: string[] }[] = [];
    const helper = MockChatModel.script([{ text: 'refund duration' }]);
    await run(
      {
        queryTransformers: [new RewriteQueryTransformer({ chatClient: ChatClient.create(helper) })],
        documentPostProcessors: [logging(log)],
      },
      'Hello! How long do refunds take?',
    );
    expect(log[0]?.query.text).toBe('refund duration');
    expect(log[0]?.query.context).toBeInstanceOf(Map);
    expect(log[0]?.query.history).toEqual([]);
  });

  it('a processor that completes without a value keeps the documents', async () => {
    const { record } = await run({ documentPostProcessors: [{ process: () => EMPTY }] });
    expect(ids(record?.documents ?? [])).toEqual(['a', 'b', 'c']);
  });

  it('sources on the stream are the post-processed documents', async () => {
    const { chunks } = await run({
      documentPostProcessors: [new TopKDocumentPostProcessor({ topK: 1 })],
      emitSources: true,
    });
    const sources = chunks.filter((c) => c.type === 'source');
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({ type: 'source', id: 'a' });
  });

  it("a processor's error or throw fails the call before the model call", async () => {
    for (const processor of [
      { process: () => throwError(() => new Error('reranker broke')) },
      {
        process: (_q: Query, d: readonly ScoredDocument[]) =>
          of(d).pipe(
            map(() => {
              throw new Error('reranker broke');
            }),
          ),
      },
    ] as DocumentPostProcessor[]) {
      const model = answer();
      const rag = new RetrievalAugmentationAdvisor({
        documentRetrievers: [fixed(doc('a', 0.9))],
        documentPostProcessors: [processor],
      });
      const client = ChatClient.builder(model).defaultAdvisors(rag).build();
      await expect(lastValueFrom(client.prompt('q').call().content())).rejects.toThrow(
        'reranker broke',
      );
      expect(model.requests).toHaveLength(0);
    }
  });

  it('re-subscribing runs the re-ranker again and counts its usage afresh', async () => {
    const reranker = MockChatModel.script([
      { text: '[2, 1]', usage: { inputTokens: 30, outputTokens: 6 } },
      { text: '[1, 2]', usage: { inputTokens: 30, outputTokens: 6 } },
    ]);
    const model = MockChatModel.script([
      { text: 'one', usage: { inputTokens: 50, outputTokens: 2 } },
      { text: 'two', usage: { inputTokens: 50, outputTokens: 2 } },
    ]);
    const rag = new RetrievalAugmentationAdvisor({
      documentRetrievers: [fixed(doc('a', 0.9), doc('b', 0.5))],
      documentPostProcessors: [
        new ChatClientDocumentReranker({ chatClient: ChatClient.create(reranker) }),
      ],
    });
    const response$ = ChatClient.builder(model)
      .defaultAdvisors(rag)
      .build()
      .prompt('q')
      .call()
      .chatResponse();
    const first = await lastValueFrom(response$);
    const second = await lastValueFrom(response$);
    expect([first.usage.inputTokens, second.usage.inputTokens]).toEqual([80, 80]);
    expect(model.requests[0]?.messages.at(-1)?.content).toMatch(/Text of b\.\nText of a\./);
    expect(model.requests[1]?.messages.at(-1)?.content).toMatch(/Text of a\.\nText of b\./);
  });

  it('validates documentPostProcessors with InvalidOptionsError', () => {
    for (const bad of [{}, [{}], [{ process: 'no' }], [null]]) {
      let error: unknown;
      try {
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [fixed()],
          documentPostProcessors: bad as never,
        });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InvalidOptionsError);
      expect((error as InvalidOptionsError).option).toBe('documentPostProcessors');
    }
  });
});

describe('TopKDocumentPostProcessor', () => {
  const process = (processor: TopKDocumentPostProcessor, documents: ScoredDocument[]) =>
    lastValueFrom(
      processor.process({ text: 'q', history: [], context: new Map() }, documents),
    ).then(ids);

  it('keeps the first topK documents in the order they come (not re-sorted by score)', async () => {
    const ranked = [doc('low', 0.1), doc('high', 0.9), doc('mid', 0.5)];
    await expect(process(new TopKDocumentPostProcessor({ topK: 2 }), ranked)).resolves.toEqual([
      'low',
      'high',
    ]);
  });

  it('drops documents below similarityThreshold (at the threshold kept), then applies topK', async () => {
    const documents = [doc('a', 0.9), doc('b', 0.2), doc('c', 0.5), doc('d', 0.6), doc('e', 0.7)];
    await expect(
      process(new TopKDocumentPostProcessor({ similarityThreshold: 0.5, topK: 3 }), documents),
    ).resolves.toEqual(['a', 'c', 'd']);
  });

  it('defaults to topK 4 and no threshold; an empty list stays empty', async () => {
    const documents = ['a', 'b', 'c', 'd', 'e'].map((id) => doc(id, -0.5));
    await expect(process(new TopKDocumentPostProcessor(), documents)).resolves.toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    await expect(process(new TopKDocumentPostProcessor(), [])).resolves.toEqual([]);
  });

  it('validates its options with InvalidOptionsError', () => {
    const bad: [string, object][] = [
      ['topK', { topK: 0 }],
      ['topK', { topK: 1.5 }],
      ['topK', { topK: 10_001 }],
      ['similarityThreshold', { similarityThreshold: 1.5 }],
      ['similarityThreshold', { similarityThreshold: Number.NaN }],
    ];
    for (const [option, options] of bad) {
      let error: unknown;
      try {
        new TopKDocumentPostProcessor(options);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InvalidOptionsError);
      expect((error as InvalidOptionsError).option).toBe(option);
    }
  });
});
