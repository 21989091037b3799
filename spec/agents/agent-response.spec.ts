import { AgentResponse } from '../../lib/agents/agent-response';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ResponseAssembler } from '../../lib/core/response-assembler';

/** What the assembler the nested path used before makes of the same chunks. */
const assembled = (chunks: readonly ChatChunk[]) => {
  const assembler = new ResponseAssembler();
  for (const chunk of chunks) assembler.add(chunk);
  return assembler.build();
};

const folded = (chunks: readonly ChatChunk[]) => {
  const response = new AgentResponse();
  for (const chunk of chunks) response.add(chunk);
  return response.build();
};

const text = (...pieces: string[]): ChatChunk[] =>
  pieces.map((piece) => ({ type: 'text-delta', text: piece }));

describe('AgentResponse: a nested agent response, text deltas kept as pieces', () => {
  it('builds the response ResponseAssembler builds from a stream of every kind of chunk', () => {
    const chunks: ChatChunk[] = [
      { type: 'metadata', id: 'r1', model: 'm' },
      ...text('Hel', 'lo'),
      { type: 'reasoning-delta', text: 'think' },
      ...text(', ', 'world'),
      { type: 'tool-call', id: 'c1', name: 'noop', arguments: '{}' },
      { type: 'tool-result', id: 'c1', name: 'noop', content: 'ok' },
      ...text('!'),
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
      { type: 'finish', reason: 'stop' },
    ];
    expect(folded(chunks)).toEqual(assembled(chunks));
    expect(folded(chunks).text).toBe('Hello, world!');
  });

  it('drops the text before a retry and before a withdrawn answer, in order', () => {
    const chunks: ChatChunk[] = [
      ...text('first ', 'try'),
      { type: 'retry', attempt: 2, reason: 'invalid', advisor: 'validation' },
      ...text('second ', 'try'),
      {
        type: 'guardrail-tripped',
        guardrail: 'pii',
        stage: 'output',
        message: 'withdrawn',
        withdraw: true,
      },
      ...text('the ', 'answer'),
      { type: 'finish', reason: 'stop' },
    ];
    expect(folded(chunks).text).toBe('the answer');
    expect(folded(chunks)).toEqual(assembled(chunks));
  });

  it('builds the text so far at any point, and goes on after it', () => {
    const response = new AgentResponse();
    for (const chunk of text('a', 'b')) response.add(chunk);
    expect(response.build().text).toBe('ab');
    for (const chunk of text('c')) response.add(chunk);
    expect(response.build().text).toBe('abc');
    expect(response.build().message.content).toBe('abc');
  });
});
