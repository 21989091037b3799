import {
  ChatClient,
  LoggerAdvisor,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  StructuredOutputValidationAdvisor,
  ToolCallingAdvisor,
} from 'rx-advisors';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { roundOf, textChunks, toolRoundChunks } from '../harness/chunks.js';
import type { Framework, TextFixture } from '../harness/types.js';
import { floorAsyncGenAdapter } from './floor-asyncgen.js';
import { floorRxjsAdapter } from './floor-rxjs.js';
import { collectText, noopTool } from './rx-advisors.js';

/** W5 runs only through rx-advisors' full default chain and the floors. */
export interface W5Adapter {
  readonly framework: Framework;
  readonly label: string;
  /** One call streaming `fixture` (a JSON answer) with no tool call; the final text. */
  stream(fixture: TextFixture): Promise<string>;
  /** `rounds` tool rounds, then `fixture` as the answer; the final text. */
  toolLoop(rounds: number, fixture: TextFixture): Promise<string>;
}

/** The advisors of the full default chain, besides the tool loop. */
export const W5_ADVISORS = 4;

const ANSWER_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
} as const;

function fullChainClient(model: BenchChatModel, maxRounds = 20): ChatClient {
  return ChatClient.builder(model)
    .defaultAdvisors(
      new MessageChatMemoryAdvisor({ chatMemory: new MessageWindowChatMemory() }),
      new StructuredOutputValidationAdvisor({ outputSchema: ANSWER_SCHEMA }),
      new ToolCallingAdvisor({ maxRounds }),
      new LoggerAdvisor({ logger: { info: () => undefined } }),
    )
    .defaultTools(noopTool)
    .build();
}

const streamClients = new Map<TextFixture, ChatClient>();
const loopClients = new Map<string, ChatClient>();

/** rx-advisors with memory (in-memory window), validation, the tool loop and a logger. */
export const w5Adapter: W5Adapter = {
  framework: 'rx-advisors',
  label:
    'MessageChatMemoryAdvisor(MessageWindowChatMemory) + StructuredOutputValidationAdvisor + ' +
    'ToolCallingAdvisor + LoggerAdvisor (no-op sink), one conversation id',

  stream(fixture) {
    let client = streamClients.get(fixture);
    if (client === undefined) {
      const chunks = textChunks(fixture);
      client = fullChainClient(new BenchChatModel({ script: () => chunks }));
      streamClients.set(fixture, client);
    }
    return collectText(
      client.prompt('Hi').advisorParams({ conversationId: 'bench' }).stream().content(),
    );
  },

  toolLoop(rounds, fixture) {
    const key = `${rounds}:${fixture.text.length}`;
    let client = loopClients.get(key);
    if (client === undefined) {
      const final = textChunks(fixture);
      const model = new BenchChatModel({
        script: (_call, request) => {
          const round = roundOf(request);
          return round <= rounds ? toolRoundChunks(round) : final;
        },
      });
      client = fullChainClient(model, rounds + 1);
      loopClients.set(key, client);
    }
    return collectText(
      client.prompt('Hi').advisorParams({ conversationId: 'bench' }).stream().content(),
    );
  },
};

/** The floors, with as many pass-through stages as the full chain has advisors. */
export const w5Floors: W5Adapter[] = [floorRxjsAdapter, floorAsyncGenAdapter].map((floor) => ({
  framework: floor.framework,
  label: `${W5_ADVISORS} pass-through stages; rounds: ${floor.toolLoopLabel}`,
  stream: (fixture) => floor.stream(fixture, W5_ADVISORS),
  toolLoop: (rounds, fixture) => floor.toolLoop(rounds, fixture),
}));
