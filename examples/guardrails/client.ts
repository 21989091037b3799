// The guardrails page (bundled by spec/browser/guardrail-withdrawal.spec.ts with esbuild):
// useChat against /api/chat, rendering visibleUiParts(message.parts), so text a guardrail
// withdrew disappears from the page (docs/guardrails.md, "On the AI SDK UI protocol").
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { createElement as h, useState, type FormEvent, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { visibleUiParts } from '../../lib/ui/ui-guardrail-parts';

const transport = new DefaultChatTransport({ api: '/api/chat' });

function GuardedChat(): ReactNode {
  const { messages, sendMessage, status } = useChat({ transport });
  const [input, setInput] = useState('');
  const send = (event: FormEvent): void => {
    event.preventDefault();
    void sendMessage({ text: input });
    setInput('');
  };
  return h(
    'div',
    { 'data-status': status },
    h(
      'main',
      { id: 'log' },
      messages.map((message) =>
        h(
          'div',
          { key: message.id, className: `message ${message.role}` },
          visibleUiParts(message.parts).map((part, index) =>
            part.type === 'text'
              ? h('p', { key: index, className: 'text' }, part.text)
              : part.type === 'data-guardrail-tripped'
                ? h('p', { key: index, className: 'tripped' }, 'An answer was withdrawn.')
                : null,
          ),
        ),
      ),
    ),
    h(
      'form',
      { id: 'ask', onSubmit: send },
      h('input', {
        id: 'message',
        value: input,
        onChange: (event: { target: { value: string } }) => setInput(event.target.value),
      }),
      h('button', { id: 'send', type: 'submit' }, 'Send'),
    ),
  );
}

const root = document.getElementById('root');
if (root !== null) createRoot(root).render(h(GuardedChat));
