// The full loop through the bridge: ChatClient + ToolCallingAdvisor over the real
// @ai-sdk/google and @ai-sdk/mistral packages, and a structured-output retry.
import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client.js';
import { tool } from '../../../lib/tools/tool-fn.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import {
  fixtureLines,
  googleModel,
  mistralModel,
  replay,
  sseFrames,
} from './support/ai-sdk-targets.js';

jest.setTimeout(20_000);

/** A weather tool that records the locations it was asked for. */
function weatherTool(calls: string[]) {
  return tool({
    name: 'weather',
    description: 'The weather in a location',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string' } },
      required: ['location'],
    },
    execute: ({ location }) => {
      calls.push(location);
      return `Sunny in ${location}`;
    },
  });
}

/** The thought signature google-tool-call-gemini3.chunks.txt sends with its function call. */
const recordedSignature = (): string =>
  (
    JSON.parse(fixtureLines('google-tool-call-gemini3.chunks.txt')[0]) as {
      candidates: { content: { parts: { thoughtSignature: string }[] } }[];
    }
  ).candidates[0].content.parts[0].thoughtSignature;

describe('the tool loop through AiSdkChatModel', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(() => server.close());

  it('Gemini 3: runs the tool and sends the call back with its thought signature', async () => {
    server.enqueue(replay('google-tool-call-gemini3.chunks.txt'), replay('google-text.chunks.txt'));
    const calls: string[] = [];
    const client = ChatClient.builder(googleModel(server)).defaultTools(weatherTool(calls)).build();

    const response = await lastValueFrom(
      client.prompt('Weather in San Francisco?').call().chatResponse(),
    );

    expect(calls).toEqual(['San Francisco']);
    expect(response.text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    expect(response.metadata.rounds).toBe(2);
    // Usage of both rounds: 29 + 9 input tokens, (15 + 804) + (23 + 185) output tokens.
    expect(response.usage).toMatchObject({
      inputTokens: 38,
      outputTokens: 1027,
      reasoningTokens: 989,
    });
    const second = server.requests[1].body;
    const callId = second.contents[1].parts[0].functionCall.id as string;
    expect(callId).toEqual(expect.any(String));
    expect(second.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in San Francisco?' }] },
      {
        role: 'model',
        parts: [
          {
            // The AI SDK makes up Gemini's call ids; the same one answers the call.
            functionCall: { id: callId, name: 'weather', args: { location: 'San Francisco' } },
            thoughtSignature: recordedSignature(),
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: callId,
              name: 'weather',
              response: { name: 'weather', content: 'Sunny in San Francisco' },
            },
          },
        ],
      },
    ]);
  });

  it('Mistral: runs the tool and answers; ids and results round-trip', async () => {
    server.enqueue(replay('mistral-tool-call.chunks.txt'), replay('mistral-text.chunks.txt'));
    const calls: string[] = [];
    const client = ChatClient.builder(mistralModel(server))
      .defaultTools(weatherTool(calls))
      .build();

    const text = await lastValueFrom(
      client.prompt('Weather in San Francisco?').stream().content().pipe(toArray()),
    );

    expect(calls).toEqual(['San Francisco']);
    expect(text.join('')).toBe('Hello, world! This is a test response.');
    const messages = server.requests[1].body.messages as unknown[];
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'gSIMJiOkT',
            type: 'function',
            function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
          },
        ],
      },
      {
        role: 'tool',
        name: 'weather',
        tool_call_id: 'gSIMJiOkT',
        content: 'Sunny in San Francisco',
      },
    ]);
  });

  it('retries structured output through the bridge until the answer validates', async () => {
    // Attempt 1: the recorded Mistral answer (prose, not JSON). Attempt 2: the same
    // recording with its text replaced by JSON (synthetic, see fixtures/README.md).
    const recorded = fixtureLines('mistral-text.chunks.txt');
    const jsonAnswer = recorded.map((line, index) => {
      const chunk = JSON.parse(line) as { choices: { delta: { content: string } }[] };
      if (index === 1) chunk.choices[0].delta.content = '{"city":"Paris",';
      else if (index === 2) chunk.choices[0].delta.content = '"temperature":21}';
      else if (index > 2 && index < recorded.length - 1) chunk.choices[0].delta.content = '';
      return JSON.stringify(chunk);
    });
    server.enqueue(replay('mistral-text.chunks.txt'), { kind: 'sse', body: sseFrames(jsonAnswer) });
    const client = ChatClient.create(mistralModel(server));
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, temperature: { type: 'number' } },
      required: ['city', 'temperature'],
    } as const;

    const weather = await lastValueFrom(
      client.prompt('Weather in Paris as JSON').call().entity(schema, { validate: true }),
    );

    expect(weather).toEqual({ city: 'Paris', temperature: 21 });
    expect(server.requests).toHaveLength(2);
    const retry = server.requests[1].body.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(retry.at(-1))).toMatch(/JSON|schema/i);
  });
});
