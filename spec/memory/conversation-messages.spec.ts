import type { Message } from '../../lib/index';
import { pairToolMessages, splitSystem, turnInputs } from '../../lib/memory/conversation-messages';

const u = (content: string): Message => ({ role: 'user', content });
const a = (content: string): Message => ({ role: 'assistant', content });
const sys = (content: string): Message => ({ role: 'system', content });
const result = (id: string): Message => ({ role: 'tool', toolCallId: id, name: 'f', content: id });
const calls = (content: string, ...ids: string[]): Message => ({
  role: 'assistant',
  content,
  toolCalls: ids.map((id) => ({ id, name: 'f', arguments: '{}' })),
});

describe('turnInputs', () => {
  it('is the messages after the last assistant message, without system messages', () => {
    expect(turnInputs([sys('s'), u('few'), a('shot'), u('real')])).toEqual([u('real')]);
    expect(turnInputs([sys('s'), result('t1'), result('t2')])).toEqual([
      result('t1'),
      result('t2'),
    ]);
    expect(turnInputs([sys('s'), u('1'), u('2')])).toEqual([u('1'), u('2')]);
    expect(turnInputs([sys('s')])).toEqual([]);
    expect(turnInputs([u('1'), a('1')])).toEqual([]);
  });
});

describe('splitSystem', () => {
  it('separates system messages, keeping order', () => {
    expect(splitSystem([sys('a'), u('1'), sys('b'), a('1')])).toEqual([
      [sys('a'), sys('b')],
      [u('1'), a('1')],
    ]);
  });
});

describe('pairToolMessages', () => {
  it('leaves a well-formed conversation as it is', () => {
    const messages = [u('1'), calls('', 't1', 't2'), result('t1'), result('t2'), a('done')];
    expect(pairToolMessages(messages)).toEqual(messages);
  });

  it('drops a call without results, and its message when nothing else is left', () => {
    expect(pairToolMessages([u('1'), calls('', 't1'), u('2')])).toEqual([u('1'), u('2')]);
  });

  it('keeps the text of a message whose calls went unanswered', () => {
    expect(pairToolMessages([u('1'), calls('Let me see.', 't1'), u('2')])).toEqual([
      u('1'),
      a('Let me see.'),
      u('2'),
    ]);
  });

  it('keeps only the answered calls of a partly answered message', () => {
    expect(pairToolMessages([calls('', 't1', 't2'), result('t2'), a('x')])).toEqual([
      calls('', 't2'),
      result('t2'),
      a('x'),
    ]);
  });

  it('drops tool results that answer no call right before them', () => {
    expect(
      pairToolMessages([
        result('t0'),
        u('1'),
        result('t9'),
        calls('', 't1'),
        result('t1'),
        result('t7'),
      ]),
    ).toEqual([u('1'), calls('', 't1'), result('t1')]);
  });
});
