// The page's entry point, bundled by esbuild (see ../build-client.ts): reads the chat id from
// the URL (making one on the first visit), loads the messages the server kept for that chat,
// and renders the useChat page.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatPage } from './chat-page';
import type { ExampleMessage } from './example-message';

async function start(): Promise<void> {
  const url = new URL(window.location.href);
  let chatId = url.searchParams.get('chat');
  if (chatId === null || !/^[\w-]{1,64}$/.test(chatId)) {
    chatId = crypto.randomUUID();
    url.searchParams.set('chat', chatId);
    window.history.replaceState(null, '', url);
  }
  const response = await fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`);
  const { messages } = (await response.json()) as { messages: ExampleMessage[] };
  const root = document.getElementById('root');
  if (root === null) throw new Error('The page has no #root element.');
  createRoot(root).render(createElement(ChatPage, { chatId, initialMessages: messages }));
}

void start();
