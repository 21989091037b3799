import { getToolOrDynamicToolName, isToolOrDynamicToolUIPart } from 'ai';
import { createElement as h, type ReactNode } from 'react';
import type { ExampleDataParts, ExampleMessage } from './example-message';

/** Answers a tool call's approval request (useChat's `addToolApprovalResponse`). */
export type ApprovalResponder = (response: {
  id: string;
  approved: boolean;
  reason?: string;
}) => void | PromiseLike<void>;

type Part = ExampleMessage['parts'][number];

/**
 * One message as `useChat` holds it: each of its `parts`, in order, and under an answer what
 * its metadata says. Nothing else is shown: every element comes from `useChat`'s parsing.
 * @param props The message, and what the Approve / Deny buttons call.
 * @returns The element.
 */
export function MessageView(props: {
  message: ExampleMessage;
  respond: ApprovalResponder;
}): ReactNode {
  const { message, respond } = props;
  const rounds = message.metadata?.rounds;
  return h(
    'article',
    { className: `message ${message.role}`, 'data-role': message.role },
    message.parts.map((part, index) => h(PartView, { key: index, part, respond })),
    rounds === undefined ? null : h('footer', { className: 'meta' }, `model calls: ${rounds}`),
  );
}

function PartView(props: { part: Part; respond: ApprovalResponder }): ReactNode {
  const { part, respond } = props;
  if (part.type === 'text') return h('p', { className: 'part text' }, part.text);
  if (part.type === 'reasoning') return h('p', { className: 'part reasoning' }, part.text);
  if (part.type === 'step-start') return h('hr', { className: 'part step-start' });
  if (isToolOrDynamicToolUIPart(part)) return h(ToolView, { part, respond });
  if (part.type === 'data-status') {
    const { call, toolResults } = part.data;
    return h(
      'p',
      { className: 'part data-status' },
      `model call ${call}, reading ${toolResults} tool result${toolResults === 1 ? '' : 's'}`,
    );
  }
  if (part.type === 'data-agent-progress') return h(AgentProgressView, { progress: part.data });
  return h('p', { className: 'part other' }, part.type);
}

/** A nested agent's progress: who, what it wrote so far, its tools, and once done how it ended. */
function AgentProgressView(props: { progress: ExampleDataParts['agent-progress'] }): ReactNode {
  const { path, text, toolCalls, finished } = props.progress;
  const who = path.join(' › ');
  return h(
    'div',
    {
      className: 'part data-agent-progress',
      'data-agent': who,
      'data-state': finished === undefined ? 'running' : 'done',
    },
    h('span', { className: 'agent' }, who),
    toolCalls.length === 0 ? null : h('span', { className: 'tools' }, toolCalls.join(', ')),
    h('span', { className: 'text' }, text),
    finished === undefined ? h('span', { className: 'state' }, '…') : null,
  );
}

type ToolPart = Extract<Part, { toolCallId: string }>;

function ToolView(props: { part: ToolPart; respond: ApprovalResponder }): ReactNode {
  const { part, respond } = props;
  const name = getToolOrDynamicToolName(part);
  const call = `${name}(${part.input === undefined ? '' : JSON.stringify(part.input)})`;
  const children: ReactNode[] = [
    h('code', { key: 'call', className: 'call' }, call),
    h('span', { key: 'state', className: 'state' }, part.state),
  ];
  if (part.state === 'output-available') {
    children.push(h('output', { key: 'out', className: 'output' }, String(part.output)));
  } else if (part.state === 'output-error') {
    children.push(h('output', { key: 'out', className: 'output error' }, part.errorText));
  } else if (part.state === 'output-denied') {
    const reason = part.approval.reason;
    children.push(
      h(
        'output',
        { key: 'out', className: 'output denied' },
        `denied${reason ? `: ${reason}` : ''}`,
      ),
    );
  } else if (part.state === 'approval-requested') {
    const { id } = part.approval;
    children.push(
      h(
        'button',
        { key: 'yes', className: 'approve', onClick: () => void respond({ id, approved: true }) },
        'Approve',
      ),
      h(
        'button',
        {
          key: 'no',
          className: 'deny',
          onClick: () => void respond({ id, approved: false, reason: 'denied on the page' }),
        },
        'Deny',
      ),
    );
  }
  return h(
    'div',
    { className: 'part tool', 'data-tool': name, 'data-state': part.state },
    ...children,
  );
}
