// The demo page: posts a message, reads the Server-Sent Events answer with fetch (POST
// bodies are not possible with EventSource), and renders chunks as they arrive.
// Every model or tool text goes through textContent, never innerHTML.
'use strict';

const log = document.getElementById('log');
const form = document.getElementById('ask');
const input = document.getElementById('message');
const sendButton = document.getElementById('send');
const stopButton = document.getElementById('stop');
const resetButton = document.getElementById('reset');
let running; // the AbortController of the answer being streamed

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function addUserMessage(text) {
  log.append(element('div', 'message user', text));
}

function addAssistantMessage() {
  const root = element('div', 'message assistant');
  const tools = element('div', 'tools');
  const answer = element('div', 'answer');
  const usage = element('div', 'usage');
  root.append(tools, answer, usage);
  log.append(root);
  return { root, tools, answer, usage };
}

function scrollDown() {
  window.scrollTo(0, document.body.scrollHeight);
}

// A small SSE parser (the WHATWG event stream format): lines, blank line = dispatch.
function sseParser(onEvent) {
  let buffer = '';
  let event = { type: 'message', data: [], id: undefined };
  const dispatch = () => {
    if (event.data.length > 0) onEvent(event.type, event.data.join('\n'), event.id);
    event = { type: 'message', data: [], id: undefined };
  };
  return (text) => {
    buffer += text;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop();
    for (const line of lines) {
      if (line === '') dispatch();
      else if (line.startsWith(':'))
        continue; // a heartbeat comment
      else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event.type = value;
        else if (field === 'data') event.data.push(value);
        else if (field === 'id') event.id = value;
      }
    }
  };
}

function describeUsage(state) {
  const u = state.usage || {};
  const count = (n) => (typeof n === 'number' ? String(n) : '?');
  const parts = [
    `usage: ${count(u.inputTokens)} in`,
    `${count(u.outputTokens)} out`,
    `${count(u.totalTokens)} total tokens`,
  ];
  if (state.rounds !== undefined)
    parts.push(`${state.rounds} model call${state.rounds === 1 ? '' : 's'}`);
  if (state.finish) parts.push(`finish: ${state.finish}`);
  return parts.join(' · ');
}

function renderChunk(view, state, type, chunk) {
  switch (type) {
    case 'text-delta':
      view.answer.textContent += chunk.text;
      break;
    case 'tool-call': {
      const entry = element('div', 'tool-call');
      entry.dataset.toolCallId = chunk.id;
      entry.append(
        element('span', 'status', 'running…'),
        element('span', 'tool-name', chunk.name),
        document.createTextNode(`(${chunk.arguments})`),
      );
      view.tools.append(entry);
      state.toolCalls.set(chunk.id, entry);
      break;
    }
    case 'tool-result': {
      const entry = state.toolCalls.get(chunk.id);
      if (!entry) break;
      entry.querySelector('.status').textContent = chunk.isError ? 'failed' : 'done';
      if (chunk.isError) entry.classList.add('error');
      entry.append(element('span', 'tool-result', `→ ${chunk.content}`));
      break;
    }
    case 'usage':
      state.usage = chunk.usage;
      break;
    case 'metadata':
      if (chunk.rounds !== undefined) state.rounds = chunk.rounds;
      break;
    case 'finish':
      state.finish = chunk.reason;
      break;
    case 'error':
      view.answer.append(element('div', 'failure', `Error: ${chunk.message}`));
      break;
    default: // round-start, round-end, done…
      break;
  }
  scrollDown();
}

async function ask(message) {
  addUserMessage(message);
  const view = addAssistantMessage();
  view.root.classList.add('streaming');
  const state = { toolCalls: new Map(), usage: undefined, rounds: undefined, finish: undefined };
  running = new AbortController();
  setBusy(true);
  try {
    const response = await fetch('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
      signal: running.signal,
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body.error || `HTTP ${response.status}`);
    }
    const parse = sseParser((type, data) => renderChunk(view, state, type, JSON.parse(data)));
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parse(value);
    }
  } catch (error) {
    const stopped = error && error.name === 'AbortError';
    view.answer.append(
      element('div', 'failure', stopped ? '(stopped)' : `Error: ${error.message}`),
    );
  } finally {
    view.root.classList.remove('streaming');
    view.usage.textContent = describeUsage(state);
    running = undefined;
    setBusy(false);
    scrollDown();
  }
}

function setBusy(busy) {
  sendButton.disabled = busy;
  resetButton.disabled = busy;
  stopButton.hidden = !busy;
  if (!busy) input.focus();
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const message = input.value.trim();
  if (!message || running) return;
  input.value = '';
  void ask(message);
});

stopButton.addEventListener('click', () => running && running.abort());

resetButton.addEventListener('click', async () => {
  await fetch('/api/reset', { method: 'POST' });
  log.replaceChildren();
  input.focus();
});

async function start() {
  const [info, history] = await Promise.all([
    fetch('/api/info').then((r) => r.json()),
    fetch('/api/history').then((r) => r.json()),
  ]);
  document.getElementById('model').textContent = info.model;
  for (const message of history.messages) {
    if (message.role === 'user') addUserMessage(message.content);
    else addAssistantMessage().answer.textContent = message.content;
  }
  document.body.dataset.ready = 'true';
  scrollDown();
}

void start();
