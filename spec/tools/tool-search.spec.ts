import { lastValueFrom, toArray } from 'rxjs';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { Tool } from '../../lib/core/tool.js';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { keywordToolIndex, toolSearch } from '../../lib/tools/tool-search.js';

const make = (name: string, description: string): Tool =>
  tool({ name, description, parameters: {}, execute: () => `${name} ran` });

const many: Tool[] = [
  make('getWeather', 'Current weather and forecast for a city'),
  make('getTime', 'The time in a time zone'),
  ...Array.from({ length: 200 }, (_, i) => make(`crm_${i}`, `CRM record operation number ${i}`)),
];

describe('toolSearch', () => {
  it('offers only the search tool first, then the tools a search found, kept in the transcript', async () => {
    const search = toolSearch({ maxResults: 2 });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'searchTools', arguments: { query: 'weather forecast' } }] },
      { toolCalls: [{ name: 'getWeather', arguments: {} }] },
      { text: 'Sunny.' },
    ]);
    const chain = createAdvisorChain({
      advisors: [new ToolCallingAdvisor({ prepareRound: search.prepareRound })],
      model,
    });
    const request = ChatRequest.create({
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [search.tool, ...many],
    });
    await lastValueFrom(chain.next(request).pipe(toArray()));
    const offered = model.requests.map((r) => r.tools.map((t) => t.name));
    expect(offered[0]).toEqual(['searchTools']);
    expect(offered[1]).toEqual(['searchTools', 'getWeather']);
    expect(offered[2]).toEqual(['searchTools', 'getWeather']);
    const results = model.requests[2].messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.content)).toEqual([
      JSON.stringify({
        tools: [{ name: 'getWeather', description: 'Current weather and forecast for a city' }],
      }),
      'getWeather ran',
    ]);
  });

  it('finds tools discovered in an earlier conversation (history from memory)', async () => {
    const search = toolSearch();
    const model = MockChatModel.script([{ text: 'ok' }]);
    const chain = createAdvisorChain({
      advisors: [new ToolCallingAdvisor({ prepareRound: search.prepareRound })],
      model,
    });
    const history = [
      { role: 'user' as const, content: 'time?' },
      {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id: 's1', name: 'searchTools', arguments: '{"query":"time"}' }],
      },
      {
        role: 'tool' as const,
        toolCallId: 's1',
        name: 'searchTools',
        content: JSON.stringify({ tools: [{ name: 'getTime', description: '' }] }),
      },
    ];
    const request = ChatRequest.create({ messages: history, tools: [search.tool, ...many] });
    await lastValueFrom(chain.next(request).pipe(toArray()));
    expect(model.requests[0].tools.map((t) => t.name)).toEqual(['searchTools', 'getTime']);
  });

  it('takes a pluggable index and validates its options', async () => {
    expect(keywordToolIndex('time zone', many, 1)).toEqual(['getTime']);
    expect(keywordToolIndex('zzz qqq', many, 3)).toEqual([]);
    expect(() => toolSearch({ maxResults: 0 })).toThrow(InvalidOptionsError);
    const calls: string[] = [];
    const search = toolSearch({
      index: (query) => {
        calls.push(query);
        return ['crm_7'];
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'searchTools', arguments: { query: 'crm' } }] },
      { text: 'ok' },
    ]);
    const chain = createAdvisorChain({
      advisors: [new ToolCallingAdvisor({ prepareRound: search.prepareRound })],
      model,
    });
    const request = ChatRequest.create({ messages: [], tools: [search.tool, ...many] });
    await lastValueFrom(chain.next(request).pipe(toArray()));
    expect(calls).toEqual(['crm']);
    expect(model.requests[1].tools.map((t) => t.name)).toEqual(['searchTools', 'crm_7']);
  });
});
