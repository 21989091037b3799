import { Chat, useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { createElement as h, useState, type FormEvent, type ReactNode } from 'react';
import type { ExampleMessage } from './example-message';
import { MessageView } from './message-view';

/** `POST /api/chat` sends; `GET /api/chat/<id>/stream` resumes (the transport's default URL). */
const transport = new DefaultChatTransport<ExampleMessage>({ api: '/api/chat' });

/** Reconnects in a row after connections that broke mid-answer, before giving up. */
const MAX_RECONNECTS = 3;

/**
 * The chat's state: the AI SDK's `Chat`, which `useChat` renders. A step whose approval
 * requests all have a response is sent again by itself
 * (`lastAssistantMessageIsCompleteWithApprovalResponses`); an answer whose connection broke
 * (a network error, not Stop) is resumed at once (`resumeStream()`, our resumable GET).
 * @param chatId The chat id.
 * @param initialMessages The messages the server kept for it.
 * @returns A new chat.
 */
function createChat(chatId: string, initialMessages: ExampleMessage[]): Chat<ExampleMessage> {
  let reconnects = 0;
  const chat: Chat<ExampleMessage> = new Chat<ExampleMessage>({
    id: chatId,
    messages: initialMessages,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: ({ isDisconnect }) => {
      if (!isDisconnect) reconnects = 0;
      else if (reconnects++ < MAX_RECONNECTS) queueMicrotask(() => void chat.resumeStream());
    },
  });
  return chat;
}

/**
 * The chat page: `useChat` against the example server. `resume: true` reconnects to a
 * running answer when the page loads (after a reload).
 * @param props The chat id (from the URL) and the messages the server kept for it.
 * @returns The element.
 */
export function ChatPage(props: { chatId: string; initialMessages: ExampleMessage[] }): ReactNode {
  const { chatId, initialMessages } = props;
  const [chat] = useState(() => createChat(chatId, initialMessages));
  const { messages, sendMessage, status, stop, error, addToolApprovalResponse } =
    useChat<ExampleMessage>({ chat, resume: true });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  const send = (event: FormEvent): void => {
    event.preventDefault();
    if (busy || input.trim() === '') return;
    void sendMessage({ text: input });
    setInput('');
  };
  // stop() aborts the request; the server's answer is resumable, so it keeps running until
  // told: the DELETE ends it (the model request and tools are aborted).
  const stopAnswer = (): void => {
    void stop();
    void fetch(`/api/chat/${encodeURIComponent(chatId)}/stream`, { method: 'DELETE' });
  };

  return h(
    'div',
    { className: 'chat', 'data-status': status },
    h(
      'main',
      { id: 'log', 'aria-live': 'polite' },
      messages.map((message) =>
        h(MessageView, { key: message.id, message, respond: addToolApprovalResponse }),
      ),
    ),
    error === undefined ? null : h('p', { className: 'error', role: 'alert' }, error.message),
    h(
      'form',
      { id: 'ask', autoComplete: 'off', onSubmit: send },
      h('input', {
        id: 'message',
        value: input,
        placeholder:
          'What time is it in Tokyo? Tell me a story. Delete users 2 and 3. Research the tallest building.',
        onChange: (event: { target: { value: string } }) => setInput(event.target.value),
      }),
      h('button', { id: 'send', type: 'submit', disabled: busy }, 'Send'),
      busy ? h('button', { id: 'stop', type: 'button', onClick: stopAnswer }, 'Stop') : null,
    ),
  );
}
