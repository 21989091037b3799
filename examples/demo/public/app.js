// The demo page: posts a message, reads the Server-Sent Events answer with fetch (POST
// bodies are not possible with EventSource), and renders chunks as they arrive. When the
// connection drops before the `done` (or `error`) event, it resumes the stream with
// GET /api/chat/<x-stream-id> and the Last-Event-ID it saw, so no text is lost or repeated.
// Every model or tool text goes through textContent, never innerHTML.
'use strict';

const RESUME_ATTEMPTS = 5; // reconnects in a row without a new event before giving up
const RESUME_BACKOFF_MS = 250; // doubled on each attempt in a row: 250 ms … 4 s

const log = document.getElementById('log');
const form = document.getElementById('ask');
const input = document.getElementById('message');
const sendButton = document.getElementById('send');
const stopButton = document.getElementById('stop');
const resetButton = document.getElementById('reset');
let running; // the answer being streamed: { controller, streamId, answered, stopRequested }

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
  const connection = element('div', 'connection');
  root.append(tools, answer, connection, usage);
  log.append(root);
  return { root, tools, answer, connection, usage };
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

// Reads one SSE response body into `onEvent`. A fresh parser per response: the half frame
// of a broken connection is never dispatched. Resolves when the body ends or breaks (a
// dropped connection); rejects only when `signal` aborted it.
async function readEvents(body, onEvent, signal) {
  const parse = sseParser(onEvent);
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parse(value);
    }
  } catch (error) {
    if (signal.aborted) throw error;
  }
}

function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

// Ends a stream on the server (its model request and tools are aborted). `keepalive` lets
// the request finish while the page unloads.
function cancelStream(streamId) {
  return fetch(`/api/chat/${encodeURIComponent(streamId)}`, {
    method: 'DELETE',
    keepalive: true,
  }).catch(() => undefined);
}

// One reconnect: the response, or undefined for a network error or a server error (try
// again); throws when the server no longer has the stream (204: expired or cancelled).
async function resumeStream(streamId, lastEventId, signal) {
  let response;
  try {
    response = await fetch(`/api/chat/${encodeURIComponent(streamId)}`, {
      headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
  if (response.status === 204) throw new Error('the server no longer has this answer.');
  return response.ok ? response : undefined;
}

async function ask(message) {
  addUserMessage(message);
  const view = addAssistantMessage();
  view.root.classList.add('streaming');
  const state = { toolCalls: new Map(), usage: undefined, rounds: undefined, finish: undefined };
  const run = {
    controller: new AbortController(),
    streamId: undefined,
    answered: false,
    stopRequested: false,
  };
  const { signal } = run.controller;
  running = run;
  setBusy(true);
  let lastEventId; // the id of the last event rendered: where a resume continues
  let events = 0;
  let ended = false; // `done` or `error` arrived: nothing to resume
  const onEvent = (type, data, id) => {
    if (id !== undefined) lastEventId = id;
    if (type === 'done' || type === 'error') ended = true;
    events++;
    renderChunk(view, state, type, JSON.parse(data));
  };
  try {
    let response = await fetch('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
      signal,
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body.error || `HTTP ${response.status}`);
    }
    run.streamId = response.headers.get('x-stream-id') || undefined;
    run.answered = true;
    if (run.stopRequested) stop(run); // Stop was pressed before the stream had an id
    let attempt = 0;
    for (;;) {
      const before = events;
      if (response) await readEvents(response.body, onEvent, signal);
      if (ended) break;
      // The connection dropped before the end: resume after the last event seen.
      if (!run.streamId) throw new Error('the connection was lost.');
      attempt = events > before ? 1 : attempt + 1;
      if (attempt > RESUME_ATTEMPTS) {
        void cancelStream(run.streamId); // nobody will read it: stop the model
        throw new Error('the connection was lost (resuming failed).');
      }
      view.connection.textContent = 'Connection lost, resuming…';
      view.root.classList.add('resuming');
      await wait(RESUME_BACKOFF_MS * 2 ** (attempt - 1), signal);
      response = await resumeStream(run.streamId, lastEventId, signal);
      if (response) {
        view.connection.textContent = '';
        view.root.classList.remove('resuming');
      }
    }
  } catch (error) {
    const stopped = signal.aborted;
    view.answer.append(
      element('div', 'failure', stopped ? '(stopped)' : `Error: ${error.message}`),
    );
  } finally {
    view.root.classList.remove('streaming', 'resuming');
    view.connection.textContent = '';
    view.usage.textContent = describeUsage(state);
    running = undefined;
    setBusy(false);
    scrollDown();
  }
}

// Stop: cancel the stream on the server (an aborted fetch alone only looks like a dropped
// connection, which the server keeps running for a resume), then stop reading. Before the
// POST's response named the stream, wait for that name (ask() calls stop again).
function stop(run) {
  run.stopRequested = true;
  if (!run.answered) return;
  if (run.streamId) void cancelStream(run.streamId);
  run.controller.abort();
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

stopButton.addEventListener('click', () => running && stop(running));

// Closing or leaving the page cancels the answer being streamed, as Stop does.
window.addEventListener('pagehide', () => {
  if (running && running.streamId) void cancelStream(running.streamId);
});

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
