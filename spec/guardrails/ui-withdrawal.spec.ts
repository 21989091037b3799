// A guardrail trip on the 'ai-sdk-ui' protocol, read by the `ai` package's own parser
// (readUIMessageStream validates every chunk against the UI message chunk schema and builds
// the message useChat would hold): the withdrawn text is marked, visibleUiParts drops it, and
// uiMessagesToMessages never sends it back to the model.
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { ChatClient } from '../../lib/index';
import { GuardrailsAdvisor, wordGuardrail } from '../../lib/guardrails/index';
import { toServerSentEvents, uiMessagesToMessages, visibleUiParts } from '../../lib/sse/index';
import { MockChatModel } from '../../lib/testing/index';
import { framesText, parseSse } from '../sse/support/sse-test-kit';

const codeNames = wordGuardrail({
  name: 'code-names',
  words: ['project zebra'],
  message: 'Withheld.',
});

/** The guarded answer as the UI message stream's chunks (the SSE frames' JSON). */
async function uiChunks(pieces: string[]): Promise<UIMessageChunk[]> {
  const client = ChatClient.builder(MockChatModel.script([{ text: pieces }]))
    .defaultAdvisors(new GuardrailsAdvisor({ output: [codeNames] }))
    .build();
  const { events } = parseSse(
    await framesText(
      client
        .prompt('What is next?')
        .stream()
        .chunks()
        .pipe(toServerSentEvents({ protocol: 'ai-sdk-ui', heartbeat: false })),
    ),
  );
  return events
    .map((event) => event.data)
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as UIMessageChunk);
}

async function messageOf(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(chunk));
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({
    stream,
    onError: (e) => {
      throw e;
    },
  })) {
    message = snapshot;
  }
  return message!;
}

describe('a guardrail trip on the AI SDK UI protocol', () => {
  it('marks the partial text withdrawn; the page shows only the replacement', async () => {
    const chunks = await uiChunks([
      'Our ',
      'next ',
      'launch ',
      'is ',
      'proj',
      'ect ze',
      'bra, ',
      'soon.',
    ]);
    const message = await messageOf(chunks);
    const shown = message.parts.filter((p) => p.type === 'text').map((p) => p.text);
    expect(shown.join('')).not.toContain('zebra');
    expect(shown.at(-1)).toBe('Withheld.');
    expect(message.parts).toContainEqual({
      type: 'data-guardrail-tripped',
      data: { guardrail: 'code-names', stage: 'output', message: 'Withheld.', withdraw: true },
    });
    const visible = visibleUiParts(message.parts);
    expect(
      visible.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text),
    ).toEqual(['Withheld.']);
    // Sent back as history, the withdrawn text does not reach the model again.
    const history = uiMessagesToMessages({
      messages: [
        { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is next?' }] },
        message,
      ],
    });
    expect(history).toEqual([
      { role: 'user', content: 'What is next?' },
      { role: 'assistant', content: 'Withheld.' },
    ]);
  });

  it('leaves an answer that trips nothing as it was', async () => {
    const message = await messageOf(await uiChunks(['Zebras ', 'are ', 'striped.']));
    expect(visibleUiParts(message.parts)).toBe(message.parts);
    expect(message.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual([
      'Zebras are striped.',
    ]);
  });
});
