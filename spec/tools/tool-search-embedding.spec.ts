// embeddingToolIndex: tool search through the vector contract (an EmbeddingModel and a
// VectorStore), with the offline VocabularyEmbeddingModel of the vector specs: its vectors
// count the words refund, shipping, password, tea, coffee, green, so similarity is overlap.
import { firstValueFrom, isObservable, lastValueFrom, Observable, toArray } from 'rxjs';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { Tool } from '../../lib/core/tool.js';
import type { ToolIndex } from '../../lib/core/tool-index.js';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { toolSearch } from '../../lib/tools/tool-search.js';
import { embeddingToolIndex } from '../../lib/vector/embedding-tool-index.js';
import { InMemoryVectorStore } from '../../lib/vector/in-memory-vector-store.js';
import { VocabularyEmbeddingModel } from '../vector/support/vocabulary-embedding-model';

const make = (name: string, description: string): Tool =>
  tool({ name, description, parameters: {}, execute: () => `${name} ran` });

const refund = make('refundOrder', 'Refund an order to the card');
const shipping = make('trackParcel', 'Shipping status of a parcel');
const password = make('resetLogin', 'Reset a forgotten password');
const tea = make('brewDrink', 'Brew green tea or coffee');
const tools = [refund, shipping, password, tea];

/** One search, as the search tool runs it (the first list the index gives). */
async function search(index: ToolIndex, query: string, offered: readonly Tool[], limit = 2) {
  const found = index(query, offered, limit);
  return isObservable(found) ? firstValueFrom(found) : found;
}

describe('embeddingToolIndex', () => {
  it('finds the tools nearest to the query, through toolSearch in the loop', async () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const search$ = toolSearch({ index: embeddingToolIndex({ embeddingModel }), maxResults: 1 });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'searchTools', arguments: { query: 'where is my shipping' } }] },
      { toolCalls: [{ name: 'trackParcel', arguments: {} }] },
      { text: 'On its way.' },
    ]);
    const chain = createAdvisorChain({
      advisors: [new ToolCallingAdvisor({ prepareRound: search$.prepareRound })],
      model,
    });
    const request = ChatRequest.create({
      messages: [{ role: 'user', content: 'Where is my parcel?' }],
      tools: [search$.tool, ...tools],
    });
    await lastValueFrom(chain.next(request).pipe(toArray()));
    expect(model.requests.map((r) => r.tools.map((t) => t.name))).toEqual([
      ['searchTools'],
      ['searchTools', 'trackParcel'],
      ['searchTools', 'trackParcel'],
    ]);
    // The tools embedded once (one batch), then the query.
    expect(embeddingModel.calls).toEqual([
      tools.map((t) => `${t.name}: ${t.description}`),
      ['where is my shipping'],
    ]);
  });

  it('embeds each tool once; a tool it has not seen is embedded at the next search', async () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const index = embeddingToolIndex({ embeddingModel });
    expect(await search(index, 'refund please', tools)).toEqual(['refundOrder', 'brewDrink']);
    expect(await search(index, 'green tea', tools, 1)).toEqual(['brewDrink']);
    const more = make('refundShipping', 'Refund the shipping cost');
    expect(await search(index, 'refund shipping', [...tools, more], 1)).toEqual(['refundShipping']);
    expect(embeddingModel.calls).toEqual([
      tools.map((t) => `${t.name}: ${t.description}`),
      ['refund please'],
      ['green tea'],
      ['refundShipping: Refund the shipping cost'],
      ['refund shipping'],
    ]);
  });

  it('returns only the tools the call offers (one index, several tool sets)', async () => {
    const index = embeddingToolIndex({ embeddingModel: new VocabularyEmbeddingModel() });
    await search(index, 'anything', tools);
    expect(await search(index, 'refund', [shipping, tea], 2)).toEqual(['brewDrink', 'trackParcel']);
  });

  it('after invalidate(), re-embeds a changed description and deletes a tool no longer offered', async () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const store = new InMemoryVectorStore({ embeddingModel });
    const index = embeddingToolIndex({ store });
    await search(index, 'coffee', tools);
    expect(store.size).toBe(4);
    const changed = make('brewDrink', 'Brew coffee only');
    const next = [refund, shipping, changed];
    // Without invalidate(), a known name is not looked at again.
    await search(index, 'coffee', next);
    expect(embeddingModel.calls.slice(2)).toEqual([['coffee']]);
    index.invalidate?.();
    await search(index, 'coffee', next);
    expect(embeddingModel.calls.slice(3)).toEqual([['brewDrink: Brew coffee only'], ['coffee']]);
    expect(store.size).toBe(3);
    const result = await lastValueFrom(store.similaritySearch({ query: 'password', topK: 3 }));
    expect(result.documents.map((d) => d.id)).not.toContain('resetLogin');
  });

  it('fails the search with the embedding error: the model sees the search tool fail', async () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    embeddingModel.failWith = new Error('embedding service down');
    const search$ = toolSearch({ index: embeddingToolIndex({ embeddingModel }) });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'searchTools', arguments: { query: 'refund' } }] },
      { text: 'Sorry.' },
    ]);
    const chain = createAdvisorChain({
      advisors: [new ToolCallingAdvisor({ prepareRound: search$.prepareRound })],
      model,
    });
    const request = ChatRequest.create({ messages: [], tools: [search$.tool, ...tools] });
    await lastValueFrom(chain.next(request).pipe(toArray()));
    const result = model.requests[1].messages.find((m) => m.role === 'tool');
    expect(result).toMatchObject({ role: 'tool', name: 'searchTools', isError: true });
  });

  it('tries the unwritten tools again after a failed embedding', async () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const index = embeddingToolIndex({ embeddingModel });
    embeddingModel.failWith = new Error('down');
    await expect(search(index, 'refund', tools)).rejects.toThrow('down');
    embeddingModel.failWith = undefined;
    expect(await search(index, 'refund', tools, 1)).toEqual(['refundOrder']);
  });

  it('cancels the embedding request when the search is unsubscribed', () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    embeddingModel.hang = true;
    const index = embeddingToolIndex({ embeddingModel });
    const found = index('refund', tools, 1);
    expect(found).toBeInstanceOf(Observable);
    const subscription = (found as Observable<readonly string[]>).subscribe();
    expect(embeddingModel.finalized).toBe(0);
    subscription.unsubscribe();
    expect(embeddingModel.finalized).toBe(1);
  });

  it('validates its options', () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const store = new InMemoryVectorStore({ embeddingModel });
    expect(() => embeddingToolIndex({})).toThrow(/either embeddingModel/);
    expect(() => embeddingToolIndex({ embeddingModel, store })).toThrow(InvalidOptionsError);
    expect(() => embeddingToolIndex({ embeddingModel: {} as never })).toThrow(/EmbeddingModel/);
    expect(() => embeddingToolIndex({ store: { add: 1 } as never })).toThrow(/VectorStore/);
    expect(() => embeddingToolIndex({ embeddingModel, similarityThreshold: 2 })).toThrow(
      /similarityThreshold/,
    );
    expect(() => embeddingToolIndex({ embeddingModel, maxTopK: 0 })).toThrow(/maxTopK/);
  });
});
