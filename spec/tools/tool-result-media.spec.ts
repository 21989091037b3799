// Tools whose results carry images and files: the loop puts them on the ToolMessage the
// next round sends, checks them, and keeps the outbound tool-result chunks text only.
import { lastValueFrom, of, toArray } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { MediaPart } from '../../lib/core/media-part';
import type { ToolMessage } from '../../lib/core/message';
import type { Tool } from '../../lib/core/tool';
import type { ToolResultContent } from '../../lib/core/tool-result-content';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { ToolResultError } from '../../lib/errors/tool-result-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const chart: MediaPart = { mediaType: 'image/png', data: { bytes: PNG }, filename: 'chart.png' };

/** A tool whose converter gives `converted` (typed loosely, to test bad shapes too). */
const screenshot = (converted: unknown, execute: Tool['execute'] = () => 'shot'): Tool =>
  tool({
    name: 'screenshot',
    description: 'A screenshot of the dashboard',
    parameters: {},
    execute,
    resultConverter: () => converted as ToolResultContent,
  });

function run(model: MockChatModel, tools: Tool[], options: ToolCallingAdvisorOptions = {}) {
  return ChatClient.builder(model)
    .defaultTools(...tools)
    .defaultAdvisors(new ToolCallingAdvisor(options))
    .build()
    .prompt('Show me the dashboard.')
    .stream()
    .chunks();
}

const twoRounds = (): MockChatModel =>
  MockChatModel.script([
    { toolCalls: [{ name: 'screenshot', arguments: {} }] },
    { text: 'Sales are up.' },
  ]);

const toolMessages = (model: MockChatModel, round: number): ToolMessage[] =>
  (model.requests[round - 1]?.messages ?? []).filter((m): m is ToolMessage => m.role === 'tool');

describe('tool results with images and files', () => {
  it("round 2's request carries the ToolMessage with the converter's text and media", async () => {
    const model = twoRounds();
    const converted: ToolResultContent = { content: 'The dashboard.', media: [chart] };

    const text = await lastValueFrom(
      ChatClient.builder(model)
        .defaultTools(screenshot(converted))
        .build()
        .prompt('Show me the dashboard.')
        .call()
        .content(),
    );

    expect(text).toBe('Sales are up.');
    expect(toolMessages(model, 2)).toEqual([
      {
        role: 'tool',
        toolCallId: 'call_1_0',
        name: 'screenshot',
        content: 'The dashboard.',
        media: [chart],
      },
    ]);
    const [sent] = toolMessages(model, 2);
    // The bytes stay bytes; the list is the loop's own copy.
    expect(sent?.media?.[0]?.data).toEqual({ bytes: PNG });
    expect(sent?.media).not.toBe(converted.media);
  });

  it('a string, or an empty media list, gives a text-only ToolMessage (no media key)', async () => {
    for (const converted of ['just text', { content: 'just text', media: [] }]) {
      const model = twoRounds();
      await lastValueFrom(run(model, [screenshot(converted)]));
      const [message] = toolMessages(model, 2);
      expect(message).toStrictEqual({
        role: 'tool',
        toolCallId: 'call_1_0',
        name: 'screenshot',
        content: 'just text',
      });
    }
  });

  it('the default converter never reads a { content, media } value as media', async () => {
    const model = twoRounds();
    const plain = tool({
      name: 'screenshot',
      description: 'A screenshot',
      parameters: {},
      execute: () => ({ content: 'x', media: [chart] }),
    });
    await lastValueFrom(run(model, [plain]));
    const [message] = toolMessages(model, 2);
    expect(message?.media).toBeUndefined();
    expect(JSON.parse(message?.content ?? '')).toMatchObject({ content: 'x' });
  });

  const badShapes: [string, unknown, string][] = [
    ['no content', { media: [chart] }, 'an object whose "content" is not a string'],
    ['a number as content', { content: 7 }, 'an object whose "content" is not a string'],
    ['media that is not an array', { content: 'x', media: chart }, '"media" is not an array'],
    [
      'a part with a data: URL',
      {
        content: 'x',
        media: [{ mediaType: 'image/png', data: { url: 'data:image/png;base64,AA' } }],
      },
      'media part 0 that is not well formed: data.url must be an http(s) URL',
    ],
    [
      'a part without a concrete media type',
      { content: 'x', media: [chart, { mediaType: 'image', data: { base64: 'AAAA' } }] },
      "media part 1 that is not well formed: the media type must be a concrete 'type/subtype'",
    ],
  ];

  it.each(badShapes)('%s is a ToolResultError the model sees', async (_label, converted, said) => {
    const model = twoRounds();
    await lastValueFrom(run(model, [screenshot(converted)]));
    const [message] = toolMessages(model, 2);
    expect(message?.isError).toBe(true);
    expect(message?.media).toBeUndefined();
    expect(message?.content).toContain(`The tool "screenshot" returned a result that is not text`);
    expect(message?.content).toContain(said);
  });

  it('fails the stream with a ToolResultError under onToolError: throw', async () => {
    const model = twoRounds();
    const error: unknown = await lastValueFrom(
      run(model, [screenshot({ content: 'x', media: 'chart.png' })], { onToolError: 'throw' }),
    ).catch((e: unknown) => e);
    expect(ToolResultError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ toolName: 'screenshot', toolCallId: 'call_1_0' });
    expect(model.requests).toHaveLength(1);
  });

  it('outbound tool-result chunks, preliminary or final, carry the text only', async () => {
    const model = twoRounds();
    const progress = tool({
      name: 'screenshot',
      description: 'A screenshot, with progress',
      parameters: {},
      execute: () => of('rendering', 'done'),
      resultConverter: (value: string): ToolResultContent => ({
        content: value,
        media: [chart],
      }),
    });

    const chunks: ChatChunk[] = await lastValueFrom(
      run(model, [progress], { emitToolEvents: true }).pipe(toArray()),
    );

    expect(chunks.filter((c) => c.type === 'tool-result')).toEqual([
      {
        type: 'tool-result',
        id: 'call_1_0',
        name: 'screenshot',
        content: 'rendering',
        preliminary: true,
      },
      {
        type: 'tool-result',
        id: 'call_1_0',
        name: 'screenshot',
        content: 'done',
        preliminary: true,
      },
      { type: 'tool-result', id: 'call_1_0', name: 'screenshot', content: 'done' },
    ]);
    expect(toolMessages(model, 2)[0]).toMatchObject({ content: 'done', media: [chart] });
  });

  it('an async tool gets the same treatment', async () => {
    const model = twoRounds();
    await lastValueFrom(
      run(model, [screenshot({ content: 'later', media: [chart] }, () => Promise.resolve('shot'))]),
    );
    expect(toolMessages(model, 2)[0]).toMatchObject({ content: 'later', media: [chart] });
  });

  it('refuses a resultConverter that is not a function when the tool is made', () => {
    const make = () =>
      tool({
        name: 'screenshot',
        description: 'A screenshot',
        parameters: {},
        execute: () => 'shot',
        resultConverter: 'media' as unknown as () => string,
      });
    expect(make).toThrow(InvalidOptionsError);
    expect(make).toThrow(/resultConverter/);
  });
});
