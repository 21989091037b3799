// Issue 17 point 4: tool approval through the AI SDK UI message stream, driven by the `ai`
// package's own chat (AbstractChat: what useChat runs, with addToolApprovalResponse and
// sendAutomaticallyWhen) against a real HTTP server that converts the posted UI messages
// with uiMessagesToMessages and streams ChatClient's answer with the 'ai-sdk-ui' protocol.
import { createServer, type Server } from 'node:http';
import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  validateUIMessages,
  type ChatState,
  type ChatStatus,
  type UIMessage,
} from 'ai';
import type { Observable } from 'rxjs';
import { InMemoryChatMemoryRepository } from '../../lib/memory/in-memory-chat-memory-repository';
import { MessageChatMemoryAdvisor } from '../../lib/memory/message-chat-memory-advisor';
import { MessageWindowChatMemory } from '../../lib/memory/message-window-chat-memory';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { Message } from '../../lib/core/message';
import { ChatClient } from '../../lib/client/chat-client';
import { pipeToNodeResponse, uiMessagesToMessages } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { tool } from '../../lib/tools/tool-fn';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { close, eventually, listen } from '../sse/support/sse-test-kit';

/** The smallest ChatState: what useChat keeps in React state, in a plain object. */
class PlainState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage): void => {
    this.messages = [...this.messages, message];
  };
  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage): void => {
    this.messages = this.messages.map((m, i) => (i === index ? message : m));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** useChat without React: the `ai` package's AbstractChat over a plain state. */
class TestChat extends AbstractChat<UIMessage> {
  constructor(api: string) {
    super({
      transport: new DefaultChatTransport({ api }),
      state: new PlainState(),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  }
  get all(): UIMessage[] {
    return this.state.messages;
  }
}

const deleted: number[] = [];
const deleteUser = tool({
  name: 'deleteUser',
  description: 'Deletes a registered user',
  parameters: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
  needsApproval: true,
  execute: ({ id }) => {
    deleted.push(id);
    return `deleted user ${id}`;
  },
});

/** A server that converts the posted UI messages (validated by the `ai` package first). */
function approvalServer(
  answer: (messages: Message[]) => Observable<ChatChunk>,
  posted: unknown[][],
  history: 'client' | 'memory' = 'client',
): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (data: Buffer) => (body += data.toString()));
    req.on('end', () => {
      void (async () => {
        const { messages } = JSON.parse(body) as { messages: unknown[] };
        posted.push(messages);
        const valid = await validateUIMessages({ messages });
        const converted = uiMessagesToMessages({
          messages: valid,
          history,
          // The client holds the conversation (history: 'client'): this test server trusts it.
          clientApprovals: true,
        });
        pipeToNodeResponse(answer(converted), res, { protocol: 'ai-sdk-ui', heartbeat: false });
      })();
    });
  });
}

describe("tool approval over the 'ai-sdk-ui' protocol (useChat's flow)", () => {
  let server: Server | undefined;
  beforeEach(() => deleted.splice(0));
  afterEach(async () => {
    if (server !== undefined) await close(server);
    server = undefined;
  });

  it('asks, then runs the approved call, gives the denied one its denial, and answers', async () => {
    const model = MockChatModel.script([
      {
        text: 'Deleting both.',
        toolCalls: [
          { id: 'c1', name: 'deleteUser', arguments: { id: 1 } },
          { id: 'c2', name: 'deleteUser', arguments: { id: 2 } },
        ],
      },
      { text: 'User 1 is deleted; you kept user 2.' },
    ]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
      .defaultTools(deleteUser)
      .build();
    const posted: unknown[][] = [];
    server = approvalServer(
      (messages) =>
        client
          .prompt()
          .messages(...messages)
          .stream()
          .chunks(),
      posted,
    );
    const chat = new TestChat(`${await listen(server)}/api/chat`);

    await chat.sendMessage({ text: 'Delete users 1 and 2' });

    expect(chat.error).toBeUndefined();
    const asked = chat.all[1];
    expect(asked.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 'Deleting both.', state: 'done' },
      expect.objectContaining({
        type: 'tool-deleteUser',
        toolCallId: 'c1',
        state: 'approval-requested',
        input: { id: 1 },
        approval: { id: 'approval-c1' },
      }),
      expect.objectContaining({
        type: 'tool-deleteUser',
        toolCallId: 'c2',
        state: 'approval-requested',
        input: { id: 2 },
        approval: { id: 'approval-c2' },
      }),
    ]);
    expect(deleted).toEqual([]);
    expect(model.calls).toBe(1);

    // The user clicks Approve on the first call and Deny on the second: useChat sends the
    // conversation again once every request of the step has a response.
    await chat.addToolApprovalResponse({ id: 'approval-c1', approved: true });
    await chat.addToolApprovalResponse({ id: 'approval-c2', approved: false, reason: 'keep 2' });
    await eventually(() => posted.length === 2 && chat.status === 'ready', 'the resumed answer');

    expect(chat.error).toBeUndefined();
    expect(deleted).toEqual([1]);
    expect(model.requests[1].messages).toEqual([
      { role: 'user', content: 'Delete users 1 and 2' },
      {
        role: 'assistant',
        content: 'Deleting both.',
        toolCalls: [
          { id: 'c1', name: 'deleteUser', arguments: '{"id":1}' },
          { id: 'c2', name: 'deleteUser', arguments: '{"id":2}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'deleteUser', content: 'deleted user 1' },
      { role: 'tool', toolCallId: 'c2', name: 'deleteUser', content: 'denied by the user: keep 2' },
    ]);
    // useChat continued the message that asked: the outcomes update its tool parts.
    expect(chat.all).toHaveLength(2);
    expect(chat.all[1].parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 'Deleting both.', state: 'done' },
      expect.objectContaining({
        type: 'tool-deleteUser',
        toolCallId: 'c1',
        state: 'output-available',
        input: { id: 1 },
        output: 'deleted user 1',
        approval: { id: 'approval-c1', approved: true },
      }),
      expect.objectContaining({
        type: 'tool-deleteUser',
        toolCallId: 'c2',
        state: 'output-denied',
        input: { id: 2 },
        approval: { id: 'approval-c2', approved: false, reason: 'keep 2' },
      }),
      { type: 'step-start' },
      { type: 'text', text: 'User 1 is deleted; you kept user 2.', state: 'done' },
    ]);
    // What the next request will post is still valid for the AI SDK, and converts to the
    // conversation the model saw, plus its answer.
    const next = await validateUIMessages({ messages: chat.all });
    expect(uiMessagesToMessages({ messages: next })).toEqual([
      ...model.requests[1].messages,
      { role: 'assistant', content: 'User 1 is deleted; you kept user 2.' },
    ]);
  });

  it('with memory holding the conversation, the request carries only the decisions', async () => {
    const model = MockChatModel.script([
      { text: '', toolCalls: [{ id: 'c1', name: 'deleteUser', arguments: { id: 7 } }] },
      { text: 'Kept user 7.' },
    ]);
    const repository = new InMemoryChatMemoryRepository();
    const chatMemory = new MessageWindowChatMemory({ repository });
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new MessageChatMemoryAdvisor({ chatMemory, saveToolMessages: true }),
        new ToolCallingAdvisor({ emitToolEvents: true }),
      )
      .defaultTools(deleteUser)
      .build();
    const sent: Message[][] = [];
    const posted: unknown[][] = [];
    server = approvalServer(
      (messages) => {
        sent.push(messages);
        return client
          .prompt()
          .messages(...messages)
          .advisorParams({ conversationId: 'ada' })
          .stream()
          .chunks();
      },
      posted,
      'memory',
    );
    const chat = new TestChat(`${await listen(server)}/api/chat`);
    await chat.sendMessage({ text: 'Delete user 7' });
    expect(chat.all[1].parts.at(-1)).toMatchObject({ state: 'approval-requested' });

    await chat.addToolApprovalResponse({ id: 'approval-c1', approved: false });
    await eventually(() => posted.length === 2 && chat.status === 'ready', 'the resumed answer');

    expect(chat.error).toBeUndefined();
    expect(sent[1]).toEqual([
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'deleteUser',
        content: '',
        approval: { approvalId: 'approval-c1', approved: false },
      },
    ]);
    expect(deleted).toEqual([]);
    const denial = 'denied by the user';
    expect(model.requests[1].messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      name: 'deleteUser',
      content: denial,
    });
    expect(chat.all[1].parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({ toolCallId: 'c1', state: 'output-denied' }),
      { type: 'step-start' },
      { type: 'text', text: 'Kept user 7.', state: 'done' },
    ]);
    expect(await repository.findByConversationId('ada')).toEqual([
      { role: 'user', content: 'Delete user 7' },
      model.requests[1].messages[1],
      { role: 'tool', toolCallId: 'c1', name: 'deleteUser', content: denial },
      { role: 'assistant', content: 'Kept user 7.' },
    ]);
  });

  it('without emitToolEvents the request still brings its call, so the client can ask', async () => {
    const model = MockChatModel.script([
      { text: 'Sure.', toolCalls: [{ id: 'c1', name: 'deleteUser', arguments: { id: 3 } }] },
    ]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor())
      .defaultTools(deleteUser)
      .build();
    server = approvalServer(
      (messages) =>
        client
          .prompt()
          .messages(...messages)
          .stream()
          .chunks(),
      [],
    );
    const chat = new TestChat(`${await listen(server)}/api/chat`);
    await chat.sendMessage({ text: 'Delete user 3' });
    expect(chat.error).toBeUndefined();
    expect(chat.all[1].parts.at(-1)).toEqual(
      expect.objectContaining({
        type: 'tool-deleteUser',
        toolCallId: 'c1',
        state: 'approval-requested',
        input: { id: 3 },
        approval: { id: 'approval-c1' },
      }),
    );
  });
});
