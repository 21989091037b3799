// Re-indexing on MCP list_changed: a real server of the official SDK (McpServer, over the
// SDK's in-memory transport) changes its tools; the server sends
// notifications/tools/list_changed, McpToolSource reports it, and reindexOnListChanged
// invalidates the embedding index, so the next search re-embeds what changed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { firstValueFrom, isObservable, lastValueFrom, toArray } from 'rxjs';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { Tool } from '../../lib/core/tool.js';
import type { ToolIndex } from '../../lib/core/tool-index.js';
import { McpToolSource } from '../../lib/mcp/mcp-tool-source.js';
import { mcpToolsAdvisor } from '../../lib/mcp/mcp-tools-advisor.js';
import { reindexOnListChanged } from '../../lib/mcp/reindex-on-list-changed.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import { keywordToolIndex, toolSearch } from '../../lib/tools/tool-search.js';
import { embeddingToolIndex } from '../../lib/vector/embedding-tool-index.js';
import { InMemoryVectorStore } from '../../lib/vector/in-memory-vector-store.js';
import { VocabularyEmbeddingModel } from '../vector/support/vocabulary-embedding-model';

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/** A real SDK server with three tools, connected to a client over linked in-memory transports. */
async function connectServer() {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  const refund = server.registerTool('refundOrder', { description: 'Refund an order' }, () =>
    text('refunded'),
  );
  const track = server.registerTool(
    'trackParcel',
    { description: 'Shipping status of a parcel' },
    () => text('on its way'),
  );
  const brew = server.registerTool('brewDrink', { description: 'Brew green tea' }, () =>
    text('brewed'),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { server, client, refund, track, brew };
}

async function search(index: ToolIndex, query: string, offered: readonly Tool[], limit = 1) {
  const found = index(query, offered, limit);
  return isObservable(found) ? firstValueFrom(found) : found;
}

/** Resolves once `source` reported a change (the notification crosses the transport). */
const nextChange = (source: McpToolSource) => firstValueFrom(source.toolsChanged$);

describe('tool search re-indexing on MCP list_changed (a real SDK server)', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((close) => close()));
  });

  it('re-embeds a changed tool and drops a removed one after the server sends list_changed', async () => {
    const { server, client, track, brew } = await connectServer();
    closing.push(
      () => client.close(),
      () => server.close(),
    );
    const source = new McpToolSource({ server: { client } });
    const embeddingModel = new VocabularyEmbeddingModel();
    const store = new InMemoryVectorStore({ embeddingModel });
    const index = embeddingToolIndex({ store });
    const reindexing = reindexOnListChanged({ index, sources: source });
    closing.push(() => Promise.resolve(reindexing.unsubscribe()));

    expect(await search(index, 'coffee', await source.listTools())).toEqual(['brewDrink']);
    expect(store.size).toBe(3);
    const embeddedBefore = embeddingModel.calls.length;

    // The server changes its list: a description now about coffee, and a tool removed.
    let changed = nextChange(source);
    brew.update({ description: 'Brew coffee' });
    await changed;
    changed = nextChange(source);
    track.remove();
    await changed;

    const relisted = await source.listTools();
    expect(relisted.map((t) => t.name)).toEqual(['refundOrder', 'brewDrink']);
    expect(await search(index, 'coffee', relisted)).toEqual(['brewDrink']);
    // Only the changed tool was embedded again (then the query); the removed one is gone.
    expect(embeddingModel.calls.slice(embeddedBefore)).toEqual([
      ['brewDrink: Brew coffee'],
      ['coffee'],
    ]);
    expect(store.size).toBe(2);

    // Unsubscribed: a later change no longer invalidates (the next search embeds nothing new).
    reindexing.unsubscribe();
    changed = nextChange(source);
    brew.update({ description: 'Brew green tea' });
    await changed;
    const after = embeddingModel.calls.length;
    await search(index, 'tea', await source.listTools());
    expect(embeddingModel.calls.slice(after)).toEqual([['tea']]);
  });

  it('offers a tool the server added, found by the next search of a chat', async () => {
    const { server, client } = await connectServer();
    closing.push(
      () => client.close(),
      () => server.close(),
    );
    const source = new McpToolSource({ server: { client } });
    const index = embeddingToolIndex({
      embeddingModel: new VocabularyEmbeddingModel(),
      // No word in common is no match (else ties at 0 would be found, by name).
      similarityThreshold: 0.1,
    });
    const reindexing = reindexOnListChanged({ index, sources: [source] });
    closing.push(() => Promise.resolve(reindexing.unsubscribe()));
    const search$ = toolSearch({ index, maxResults: 1 });
    const model = MockChatModel.respond((request) => {
      const results = request.messages.filter((m) => m.role === 'tool');
      if (results.length === 0) {
        return { toolCalls: [{ name: 'searchTools', arguments: { query: 'reset password' } }] };
      }
      return { text: results.map((m) => m.content).join(' | ') };
    });
    const chain = createAdvisorChain({
      advisors: [
        mcpToolsAdvisor({ source }),
        new ToolCallingAdvisor({ prepareRound: search$.prepareRound }),
      ],
      model,
    });
    const ask = () =>
      lastValueFrom(
        chain.next(ChatRequest.create({ messages: [], tools: [search$.tool] })).pipe(toArray()),
      );
    await ask();
    expect(model.requests[1].tools.map((t) => t.name)).toEqual(['searchTools']);

    const changed = nextChange(source);
    server.registerTool('resetLogin', { description: 'Reset a forgotten password' }, () =>
      text('reset'),
    );
    await changed;
    await ask();
    expect(model.requests[3].tools.map((t) => t.name)).toEqual(['searchTools', 'resetLogin']);
  });

  it('refuses an index without invalidate() and a source that is not an McpToolSource', () => {
    const source = new McpToolSource({
      server: { client: new Client({ name: 't', version: '1' }) },
    });
    expect(() => reindexOnListChanged({ index: keywordToolIndex, sources: source })).toThrow(
      /invalidate\(\)/,
    );
    const index = embeddingToolIndex({ embeddingModel: new VocabularyEmbeddingModel() });
    expect(() => reindexOnListChanged({ index, sources: [{} as McpToolSource] })).toThrow(
      /McpToolSource/,
    );
  });
});
