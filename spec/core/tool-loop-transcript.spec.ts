import type { Message } from '../../lib/core/message';
import { ToolLoopTranscript } from '../../lib/core/tool-loop-transcript';

const assistant = (content: string): Message => ({ role: 'assistant', content });
const result = (id: string): Message => ({ role: 'tool', toolCallId: id, name: 't', content: id });

describe('ToolLoopTranscript', () => {
  it('is one object per context, created on first use', () => {
    const context = new Map<string, unknown>();
    const transcript = ToolLoopTranscript.of(context);
    expect(ToolLoopTranscript.of(context)).toBe(transcript);
    expect(ToolLoopTranscript.of(new Map())).not.toBe(transcript);
    expect(transcript.messages).toEqual([]);
  });

  it('gives what the run added after a mark', () => {
    const transcript = ToolLoopTranscript.of(new Map());
    const run = {};
    transcript.append(run, [assistant('a'), result('1')]);
    const mark = transcript.mark();
    transcript.append(run, [assistant('b'), result('2')]);
    expect(transcript.since(mark)).toEqual([assistant('b'), result('2')]);
    expect(transcript.messages).toHaveLength(4);
  });

  it('gives all of a run that started after the mark, and only the latest run', () => {
    const transcript = ToolLoopTranscript.of(new Map());
    const mark = transcript.mark();
    transcript.append({}, [assistant('first attempt')]);
    transcript.append({}, [assistant('second attempt'), result('2')]);
    expect(transcript.since(mark)).toEqual([assistant('second attempt'), result('2')]);
  });

  it('returns a copy that later rounds do not change', () => {
    const transcript = ToolLoopTranscript.of(new Map());
    const run = {};
    const mark = transcript.mark();
    transcript.append(run, [assistant('a')]);
    const snapshot = transcript.since(mark);
    transcript.append(run, [assistant('b')]);
    expect(snapshot).toEqual([assistant('a')]);
  });
});
