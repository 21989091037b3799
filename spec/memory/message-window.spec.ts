import type { Message } from '../../lib/index';
import { messageWindow } from '../../lib/memory/message-window';

const sys = (content: string): Message => ({ role: 'system', content });
const u = (content: string): Message => ({ role: 'user', content });
const a = (content: string): Message => ({ role: 'assistant', content });
const call = (id: string): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name: 'getTime', arguments: '{}' }],
});
const result = (id: string): Message => ({
  role: 'tool',
  toolCallId: id,
  name: 'getTime',
  content: id,
});

/** Whether a window starts validly: not with a tool result, every call answered right after it. */
function isWellFormed(window: readonly Message[]): boolean {
  const others = window.filter((m) => m.role !== 'system');
  if (others[0]?.role === 'tool') return false;
  for (let i = 0; i < others.length; i++) {
    const m = others[i];
    if (m.role === 'assistant' && m.toolCalls !== undefined) {
      const ids = m.toolCalls.map((c) => c.id);
      const following = others
        .slice(i + 1, i + 1 + ids.length)
        .map((r) => (r.role === 'tool' ? r.toolCallId : ''));
      if (following.join() !== ids.join()) return false;
    }
  }
  return true;
}

describe('messageWindow', () => {
  it('keeps everything when it fits', () => {
    const messages = [sys('s'), u('1'), a('1')];
    expect(messageWindow(messages, 3)).toEqual(messages);
  });

  it('keeps the newest messages and every system message', () => {
    const messages = [sys('s'), u('1'), a('1'), u('2'), a('2'), sys('s2'), u('3'), a('3')];
    expect(messageWindow(messages, 6)).toEqual([
      sys('s'),
      sys('s2'),
      u('2'),
      a('2'),
      u('3'),
      a('3'),
    ]);
  });

  it('cuts at a user message rather than start with a tool result', () => {
    const messages = [u('1'), call('t1'), result('t1'), a('1'), u('2'), a('2')];
    // 4 would start at result('t1'): an orphan
    expect(messageWindow(messages, 4)).toEqual([u('2'), a('2')]);
  });

  it('never starts with a tool-call message whose results were cut off, nor with those results', () => {
    const messages = [
      u('1'),
      a('1'),
      u('2'),
      call('t1'),
      result('t1'),
      call('t2'),
      result('t2'),
      a('2'),
    ];
    for (let max = 1; max <= messages.length; max++) {
      const window = messageWindow(messages, max);
      expect(window.length).toBeLessThanOrEqual(max);
      expect(isWellFormed(window)).toBe(true);
    }
    expect(messageWindow(messages, 5)).toEqual([
      call('t1'),
      result('t1'),
      call('t2'),
      result('t2'),
      a('2'),
    ]);
    expect(messageWindow(messages, 4)).toEqual([call('t2'), result('t2'), a('2')]);
  });

  it('stays well formed for every window size over a long conversation with parallel calls', () => {
    const parallel: Message = {
      role: 'assistant',
      content: 'two at once',
      toolCalls: [
        { id: 'p1', name: 'getTime', arguments: '{}' },
        { id: 'p2', name: 'getTime', arguments: '{}' },
      ],
    };
    const messages: Message[] = [sys('rules')];
    for (let turn = 0; turn < 5; turn++) {
      messages.push(
        u(`q${turn}`),
        parallel,
        result('p1'),
        result('p2'),
        call(`c${turn}`),
        result(`c${turn}`),
        a(`a${turn}`),
      );
    }
    for (let max = 1; max <= messages.length + 1; max++) {
      const window = messageWindow(messages, max);
      expect(window[0]).toEqual(sys('rules'));
      expect(window.length).toBeLessThanOrEqual(Math.max(max, 1));
      expect(isWellFormed(window)).toBe(true);
      // the kept messages are the newest ones, in order
      expect(messages.slice(messages.length - (window.length - 1))).toEqual(window.slice(1));
    }
  });

  it('keeps only system messages when no valid start fits', () => {
    expect(messageWindow([sys('s'), u('1'), call('t1'), result('t1')], 2)).toEqual([sys('s')]);
  });

  it('keeps every system message even when they alone exceed the window', () => {
    expect(messageWindow([sys('a'), sys('b'), u('1')], 1)).toEqual([sys('a'), sys('b')]);
  });

  it('returns a copy, never the array it was given', () => {
    const messages = [u('1')];
    expect(messageWindow(messages, 5)).not.toBe(messages);
  });
});
