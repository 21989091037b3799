// The demo page: posts a message, reads the Server-Sent Events answer with fetch (POST
// bodies are not possible with EventSource), and renders chunks as they arrive. When the
// connection drops before the `done` (or `error`) event, it resumes the stream with
// GET /api/chat/<x-stream-id> and the Last-Event-ID it saw, so no text is lost or repeated.
// Every model or tool text goes through textContent, never innerHTML.
'use strict';

// Reconnects in a row without a new event before giving up: 7 span about 30 s, long
// enough for a restarted server (its durable runs continue the answer, docs/durable-runs.md).
const RESUME_ATTEMPTS = 7;
const RESUME_BACKOFF_MS = 250; // doubled on each attempt in a row: 250 ms … 16 s
const MAX_MESSAGE_LENGTH = 4000; // the server's limit (examples/demo/read-chat-message.ts)
// The answer being streamed, kept for this tab (sessionStorage): a reload resumes it.
const ACTIVE_KEY = 'rx-advisors-demo.active';

const log = document.getElementById('log');
const form = document.getElementById('ask');
const input = document.getElementById('message');
const sendButton = document.getElementById('send');
const stopButton = document.getElementById('stop');
const resetButton = document.getElementById('reset');
const inputHint = document.getElementById('input-hint');
let running; // the answer being streamed: { controller, streamId, answered, stopRequested }
let leaving = false; // pagehide: keep the active stream's id for the next page (a reload)

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
  const sources = element('div', 'sources');
  const usage = element('div', 'usage');
  const connection = element('div', 'connection');
  root.append(tools, answer, sources, connection, usage);
  log.append(root);
  return { root, tools, answer, sources, connection, usage };
}

// A source under the answer: a document of the demo's set links to its text on the server;
// a URL source links out only when it is http(s) (never a javascript: URL).
function renderSource(view, source) {
  if (!view.sources.firstChild) view.sources.append(element('span', 'sources-label', 'Sources:'));
  const item = element('span', 'source');
  item.dataset.sourceId = source.id;
  let href;
  if (source.sourceType === 'url' && /^https?:\/\//i.test(source.url)) href = source.url;
  else if (source.sourceType === 'document') href = `/api/docs/${encodeURIComponent(source.id)}`;
  const title = source.title || source.url || source.id;
  if (href) {
    const link = element('a', undefined, title);
    link.href = href;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    item.append(link);
  } else item.textContent = title;
  if (source.filename) item.append(element('span', 'source-file', ` (${source.filename})`));
  view.sources.append(item);
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

// What is known of an answer, and nothing else: a stopped answer may have no usage yet.
function describeUsage(state) {
  const u = state.usage || {};
  const known = (n) => typeof n === 'number';
  const parts = [];
  if (known(u.inputTokens) && known(u.outputTokens)) {
    parts.push(`usage: ${u.inputTokens} in`, `${u.outputTokens} out`);
    if (known(u.totalTokens)) parts.push(`${u.totalTokens} total tokens`);
  } else if (known(u.totalTokens)) parts.push(`usage: ${u.totalTokens} tokens`);
  if (state.rounds !== undefined)
    parts.push(`${state.rounds} model call${state.rounds === 1 ? '' : 's'}`);
  if (state.finish) parts.push(`finish: ${state.finish}`);
  if (state.interrupted) parts.push(state.interrupted);
  return parts.join(' · ');
}

// A call that waits for the user: Approve / Deny buttons. Once every call of the answer
// has a decision, the decisions go to the server as the next request (POST /api/chat with
// `decisions`), whose answer runs the approved calls and reports the denied ones.
function renderApprovalRequest(view, state, chunk) {
  const call = chunk.toolCall;
  if (!state.toolCalls.has(call.id)) renderChunk(view, state, 'tool-call', call);
  const entry = state.toolCalls.get(call.id);
  entry.classList.add('awaiting-approval');
  entry.dataset.approvalId = chunk.approvalId;
  entry.querySelector('.status').textContent = 'needs your approval';
  const approval = { approvalId: chunk.approvalId, call, decision: undefined };
  state.approvals = state.approvals || [];
  state.approvals.push(approval);
  const approve = element('button', 'approve', 'Approve');
  const deny = element('button', 'deny', 'Deny');
  approve.type = deny.type = 'button';
  const decide = (approved) => {
    approve.disabled = deny.disabled = true;
    entry.classList.remove('awaiting-approval');
    entry.querySelector('.status').textContent = approved ? 'approved' : 'denied';
    approval.decision = approved
      ? { approvalId: approval.approvalId, approved }
      : { approvalId: approval.approvalId, approved, reason: 'denied on the demo page' };
    sendDecisionsWhenComplete(state);
  };
  approve.addEventListener('click', () => decide(true));
  deny.addEventListener('click', () => decide(false));
  entry.append(element('span', 'approval', ''));
  entry.lastChild.append(approve, deny);
}

function sendDecisionsWhenComplete(state) {
  const approvals = state.approvals || [];
  if (running || approvals.length === 0 || approvals.some((a) => !a.decision)) return;
  state.approvals = [];
  const label = approvals
    .map(
      (a) => `${a.decision.approved ? 'Approved' : 'Denied'} ${a.call.name}(${a.call.arguments})`,
    )
    .join('; ');
  void ask(
    label,
    undefined,
    approvals.map((a) => a.decision),
  );
}

// A failed fetch() says only "Failed to fetch" (a TypeError): say what it means here.
function describeError(error) {
  if (error instanceof TypeError) {
    return 'could not reach the demo server. Is it still running? Start it again with npm start, then resend.';
  }
  return error.message;
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
    case 'tool-approval-request':
      renderApprovalRequest(view, state, chunk);
      break;
    case 'tool-result': {
      let entry = state.toolCalls.get(chunk.id);
      if (!entry) {
        // A call approved in an earlier answer: it runs in this one.
        if (!chunk.name) break;
        renderChunk(view, state, 'tool-call', { id: chunk.id, name: chunk.name, arguments: '…' });
        entry = state.toolCalls.get(chunk.id);
      }
      entry.querySelector('.status').textContent = chunk.isError ? 'failed' : 'done';
      if (chunk.isError) entry.classList.add('error');
      entry.append(element('span', 'tool-result', `→ ${chunk.content}`));
      break;
    }
    case 'source':
      renderSource(view, chunk);
      break;
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
function cancelStream(streamId, graceMs) {
  const grace = graceMs === undefined ? '' : `?grace=${graceMs}`;
  return fetch(`/api/chat/${encodeURIComponent(streamId)}${grace}`, {
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

function saveActive(streamId, message) {
  try {
    if (streamId) sessionStorage.setItem(ACTIVE_KEY, JSON.stringify({ streamId, message }));
    else sessionStorage.removeItem(ACTIVE_KEY);
  } catch {
    // storage disabled: a reload then shows the answer from the history once it is saved
  }
}

function loadActive() {
  try {
    return JSON.parse(sessionStorage.getItem(ACTIVE_KEY) || 'null');
  } catch {
    return null;
  }
}

// `resumeId`: continue a stream this tab started before a reload (replayed from its start).
// `decisions`: send decisions on the calls awaiting approval instead of `message` (which is
// then only shown).
async function ask(message, resumeId, decisions) {
  addUserMessage(message);
  const view = addAssistantMessage();
  view.root.classList.add('streaming');
  const state = { toolCalls: new Map(), usage: undefined, rounds: undefined, finish: undefined };
  const run = {
    controller: new AbortController(),
    streamId: resumeId,
    answered: resumeId !== undefined,
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
    if (type === 'done' || type === 'error') {
      ended = true;
      saveActive(undefined); // finished: a reload now finds it in the history
    }
    events++;
    renderChunk(view, state, type, JSON.parse(data));
  };
  try {
    let response;
    if (resumeId === undefined) {
      response = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(decisions ? { decisions } : { message }),
        signal,
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        throw new Error(body.error || `the server answered HTTP ${response.status}.`);
      }
      run.streamId = response.headers.get('x-stream-id') || undefined;
      run.answered = true;
    } else {
      response = await resumeStream(resumeId, undefined, signal);
    }
    saveActive(run.streamId, message);
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
    state.interrupted = stopped ? 'stopped' : 'failed';
    view.answer.append(
      element('div', 'failure', stopped ? '(stopped)' : `Error: ${describeError(error)}`),
    );
  } finally {
    if (!leaving) saveActive(undefined);
    view.root.classList.remove('streaming', 'resuming');
    view.connection.textContent = '';
    view.usage.textContent = describeUsage(state);
    running = undefined;
    setBusy(false);
    scrollDown();
    sendDecisionsWhenComplete(state); // decided while the answer was still streaming
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

// Over-long input is not cut silently: say how long it is, and refuse to send it.
function checkLength() {
  const length = input.value.length;
  const tooLong = length > MAX_MESSAGE_LENGTH;
  inputHint.hidden = !tooLong;
  inputHint.textContent = tooLong
    ? `Your message has ${length.toLocaleString('en')} characters; the demo accepts at most ${MAX_MESSAGE_LENGTH.toLocaleString('en')}. Shorten it to send it.`
    : '';
  return !tooLong;
}
input.addEventListener('input', checkLength);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const message = input.value.trim();
  if (!message || running || !checkLength()) return;
  input.value = '';
  void ask(message);
});

stopButton.addEventListener('click', () => running && stop(running));

// Leaving the page cancels the answer unless the page comes back: pagehide cannot tell a
// reload from a closed tab, so it asks the server to cancel in 3 s; a reloaded page resumes
// the stream (sessionStorage keeps its id) before that, which calls the cancel off.
const LEAVE_GRACE_MS = 3000;
window.addEventListener('pagehide', () => {
  leaving = true;
  if (running && running.streamId) void cancelStream(running.streamId, LEAVE_GRACE_MS);
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
  if (info.docs && info.docs.length > 0) {
    const docsHint = document.getElementById('docs');
    docsHint.textContent = `Documents: ${info.docs.map((d) => d.title).join(', ')}. Ask about them; the ones found are listed under the answer.`;
    docsHint.hidden = false;
  }
  renderHistory(history.messages);
  document.body.dataset.ready = 'true';
  scrollDown();
  const active = loadActive();
  if (active && active.streamId && !isAnswered(history.messages, active.message)) {
    void ask(active.message, active.streamId);
  } else saveActive(undefined);
}

// Whether the history already ends with this question answered (the stream finished while
// the page reloaded): then there is nothing to resume.
function isAnswered(messages, question) {
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') last = i;
  });
  return (
    last >= 0 &&
    messages[last].content === question &&
    messages.slice(last + 1).some((m) => m.role === 'assistant' && !m.toolCalls)
  );
}

// The saved conversation: questions, tool calls with their results, answers with what is
// known of their usage.
function renderHistory(messages) {
  let view; // the assistant bubble of the current turn
  const state = { toolCalls: new Map() };
  for (const message of messages) {
    if (message.role === 'user') {
      addUserMessage(message.content);
      view = undefined;
      state.toolCalls = new Map();
      continue;
    }
    view = view || addAssistantMessage();
    if (message.role === 'tool') {
      renderChunk(view, state, 'tool-result', {
        id: message.toolCallId,
        content: message.content,
        isError: message.isError,
      });
    } else if (message.toolCalls) {
      for (const call of message.toolCalls) renderChunk(view, state, 'tool-call', call);
    } else {
      view.answer.textContent = message.content;
      for (const source of (message.summary && message.summary.sources) || []) {
        renderSource(view, source);
      }
      view.usage.textContent = describeUsage(message.summary || {});
      view = undefined;
    }
  }
}

void start();
