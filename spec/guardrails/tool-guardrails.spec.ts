import { lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  tool,
  ToolCallingAdvisor,
  type ChatChunk,
  type ToolMessage,
} from '../../lib/index';
import {
  GuardrailsAdvisor,
  piiRedaction,
  type GuardrailsAdvisorOptions,
  type ToolGuardrail,
} from '../../lib/guardrails/index';
import { MockChatModel } from '../../lib/testing/index';

/** A transfer tool that records what it was asked to do. */
function transferTool(done: string[]) {
  return tool({
    name: 'transfer',
    description: 'Transfers money',
    parameters: {
      type: 'object',
      properties: { amount: { type: 'number' }, to: { type: 'string' } },
      required: ['amount', 'to'],
      additionalProperties: false,
    },
    execute: ({ amount, to }: { amount: number; to: string }) => {
      done.push(`${amount} to ${to}`);
      return `sent ${amount} to ${to}; receipt mailed to ${to}@bank.example`;
    },
  });
}

const transferRound = (amount: number) =>
  MockChatModel.script([
    { toolCalls: [{ name: 'transfer', arguments: { amount, to: 'alice' } }] },
    { text: 'Done.' },
  ]);

/** The tool messages the model received in its second round. */
const toolMessages = (model: MockChatModel): ToolMessage[] =>
  (model.requests[1]?.messages ?? []).filter((m): m is ToolMessage => m.role === 'tool');

function run(
  model: MockChatModel,
  done: string[],
  options: GuardrailsAdvisorOptions,
  loop?: ToolCallingAdvisor,
) {
  const builder = ChatClient.builder(model).defaultTools(transferTool(done));
  const advisors = [new GuardrailsAdvisor(options), ...(loop === undefined ? [] : [loop])];
  return builder
    .defaultAdvisors(...advisors)
    .build()
    .prompt('Pay Alice')
    .stream()
    .chunks()
    .pipe(toArray());
}

const limit: ToolGuardrail = {
  name: 'transfer-limit',
  checkCall: ({ call }) => {
    const { amount } = JSON.parse(call.arguments) as { amount: number };
    if (amount > 10_000) return { tripped: true, end: true, message: 'I cannot do that.' };
    if (amount > 100) return { tripped: true, message: 'Transfers above 100 need a human.' };
    return undefined;
  },
};

describe('tool guardrails', () => {
  it('denies a call before it runs: the model sees the message as an error result', async () => {
    const done: string[] = [];
    const model = transferRound(500);
    const chunks = await lastValueFrom(run(model, done, { tools: [limit] }));
    expect(done).toEqual([]);
    expect(toolMessages(model)).toMatchObject([
      { name: 'transfer', content: 'Transfers above 100 need a human.', isError: true },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('lets a call within the limit run', async () => {
    const done: string[] = [];
    await lastValueFrom(run(transferRound(50), done, { tools: [limit] }));
    expect(done).toEqual(['50 to alice']);
  });

  it('stops the whole call with end: true', async () => {
    const done: string[] = [];
    const model = transferRound(50_000);
    const chunks = await lastValueFrom(run(model, done, { tools: [limit] }));
    expect(done).toEqual([]);
    expect(model.calls).toBe(1);
    expect(chunks.slice(-3)).toEqual<ChatChunk[]>([
      {
        type: 'guardrail-tripped',
        guardrail: 'transfer-limit',
        stage: 'tool',
        message: 'I cannot do that.',
        withdraw: true,
      },
      { type: 'text-delta', text: 'I cannot do that.' },
      { type: 'finish', reason: 'content-filter' },
    ]);
  });

  it('rewrites a call, then checks and rewrites its result before the model sees it', async () => {
    const done: string[] = [];
    const model = transferRound(500);
    const cap: ToolGuardrail = {
      name: 'cap',
      checkCall: ({ call }) => ({
        tripped: false,
        rewrite: { ...call, arguments: JSON.stringify({ amount: 100, to: 'alice' }) },
      }),
    };
    await lastValueFrom(run(model, done, { tools: [cap, piiRedaction()] }));
    expect(done).toEqual(['100 to alice']);
    expect(toolMessages(model).map((m) => m.content)).toEqual([
      'sent 100 to alice; receipt mailed to [email]',
    ]);
  });

  it('replaces a result that trips with an error result', async () => {
    const done: string[] = [];
    const model = transferRound(5);
    const noReceipts: ToolGuardrail = {
      name: 'no-receipts',
      checkResult: (message) =>
        message.content.includes('receipt')
          ? { tripped: true, message: 'Result withheld.' }
          : undefined,
    };
    await lastValueFrom(run(model, done, { tools: [noReceipts] }));
    expect(done).toEqual(['5 to alice']);
    expect(toolMessages(model)).toMatchObject([{ content: 'Result withheld.', isError: true }]);
  });

  it('asks for approval through the tool loop when a guardrail requires it', async () => {
    const done: string[] = [];
    const asked: string[] = [];
    const big: ToolGuardrail = {
      name: 'big-transfers',
      requiresApproval: ({ call }) =>
        (JSON.parse(call.arguments) as { amount: number }).amount > 100,
    };
    const loop = new ToolCallingAdvisor({
      approve: ({ toolCall }) => {
        asked.push(toolCall.arguments);
        return { approved: false, reason: 'not today' };
      },
    });
    const model = transferRound(500);
    await lastValueFrom(run(model, done, { tools: [big] }, loop));
    expect(asked).toEqual(['{"amount":500,"to":"alice"}']);
    expect(done).toEqual([]);
    expect(toolMessages(model)[0]?.content).toContain('not today');
    // Without `approve`, the stream stops and asks the client.
    const waiting = await lastValueFrom(run(transferRound(500), done, { tools: [big] }));
    expect(waiting.some((c) => c.type === 'tool-approval-request')).toBe(true);
    expect(waiting.at(-1)).toEqual({ type: 'finish', reason: 'awaiting-approval' });
  });
});
