import type { ChatRequest, Message, ToolCall, ToolMessage } from '../../lib/index.js';
import { splitDocsPrompt } from './demo-docs-prompt.js';
import { CITY_TIME_ZONES } from './get-time-tool.js';

/** What the offline model does in one round: call tools, or answer with text. */
export type OfflineReply =
  { kind: 'tool-calls'; toolCalls: Omit<ToolCall, 'id'>[] } | { kind: 'text'; text: string };

/** Every answer starts with this, so nobody mistakes the demo model for a real one. */
export const OFFLINE_PREFIX = '(offline demo model) ';

const TIME_INTENT = /\b(time|clock|hour|o'clock)\b/i;
const USERS_INTENT = /\b(regist\w*|sign(?:ed)?[ -]?ups?|signed up|joined|users?)\b/i;
/** "delete user 3", "delete users 3 and 5". */
const DELETE_INTENT = /\b(delete|remove)\b.*\busers?\b/i;
const NUMBER = /\b\d+\b/g;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
/** "in <Place>" up to punctuation or "and": a city the table may not know (the tool decides). */
const IN_PLACE = /\bin ([\p{L}][\p{L}/_' -]{0,40}?)\s*(?=[?.!,;]|\band\b|$)/giu;
const MY_NAME_IS = /\bmy name is ([\p{L}][\p{L}'-]{0,40})/iu;
const ASKS_NAME = /\b(what(?:'s| is) my name|who am i)\b/i;

/**
 * Decides the offline model's reply to a request, the way a (very small) model would:
 * - when the messages after the last user message hold tool results, answer from them;
 * - when the user asks for the time in a city or for the users registered on a date (and
 *   the request offers that tool), ask for the tool calls;
 * - otherwise answer from the conversation itself (a name told earlier), from the demo's
 *   documents when the question came with some (`DEMO_DOCS_TEMPLATE`), or explain what it
 *   understands.
 * Pure: the same request gives the same reply.
 * @param request The round's request, with the history the memory advisor added.
 * @returns Tool calls to make, or the answer text.
 */
export function offlineReply(request: ChatRequest): OfflineReply {
  const { messages } = request;
  const lastUser = lastIndexOfRole(messages, 'user');
  const content = lastUser < 0 ? '' : messages[lastUser].content;
  // With the demo's documents, the user message is the question plus the documents found.
  const docsPrompt = splitDocsPrompt(content);
  const userText = docsPrompt?.question ?? content;
  const results = messages
    .slice(lastUser + 1)
    .filter((message): message is ToolMessage => message.role === 'tool');
  if (results.length > 0) return { kind: 'text', text: OFFLINE_PREFIX + answerFrom(results) };

  const offered = new Set(request.tools.map((tool) => tool.name));
  const toolCalls: Omit<ToolCall, 'id'>[] = [];
  if (offered.has('getTime') && TIME_INTENT.test(userText)) {
    for (const city of citiesIn(userText)) {
      toolCalls.push({ name: 'getTime', arguments: JSON.stringify({ city }) });
    }
  }
  if (offered.has('usersRegisteredOn') && USERS_INTENT.test(userText)) {
    for (const date of new Set(userText.match(ISO_DATE) ?? [])) {
      toolCalls.push({ name: 'usersRegisteredOn', arguments: JSON.stringify({ date }) });
    }
  }
  if (offered.has('deleteUser') && DELETE_INTENT.test(userText)) {
    for (const id of new Set(userText.match(NUMBER) ?? [])) {
      toolCalls.push({ name: 'deleteUser', arguments: JSON.stringify({ id: Number(id) }) });
    }
  }
  if (toolCalls.length > 0) return { kind: 'tool-calls', toolCalls };
  const fromDocs = docsPrompt === undefined ? undefined : answerFromDocs(docsPrompt.context);
  if (fromDocs !== undefined && !MY_NAME_IS.test(userText) && !ASKS_NAME.test(userText)) {
    return { kind: 'text', text: OFFLINE_PREFIX + fromDocs };
  }
  return {
    kind: 'text',
    text: OFFLINE_PREFIX + conversationalAnswer(userText, messages, lastUser),
  };
}

const CITY_PATTERNS = Object.keys(CITY_TIME_ZONES).map((city) => ({
  city,
  pattern: new RegExp(`\\b${city}\\b`),
}));

function citiesIn(text: string): string[] {
  const lower = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '') // "São Paulo" finds "sao paulo"
    .toLowerCase();
  // Known cities in the order the user wrote them.
  const known = CITY_PATTERNS.map(({ city, pattern }) => ({ city, at: lower.search(pattern) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ city }) => titleCase(city));
  if (known.length > 0) return known;
  // No city we know: pass on what follows "in", and let the tool say it does not know it.
  return [...text.matchAll(IN_PLACE)].map((match) => match[1].trim()).filter(Boolean);
}

/**
 * The gist of the best document found: its title and first two sentences (documents start
 * with a `# ` heading, and the advisor joins them best first).
 */
function answerFromDocs(context: string): string | undefined {
  const [first] = context.split(/\n(?=# )/);
  const lines = (first ?? '').trim().split('\n');
  const title = /^#\s+(.+)$/.exec(lines[0] ?? '')?.[1];
  const body = lines
    .slice(title === undefined ? 0 : 1)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (body === '') return undefined;
  const gist =
    body
      .match(/[^.!?]+[.!?]+/g)
      ?.slice(0, 2)
      .join('')
      .trim() ?? body;
  return title === undefined
    ? `From the demo's documents: ${gist}`
    : `From the demo's documents ("${title}"): ${gist}`;
}

function answerFrom(results: readonly ToolMessage[]): string {
  return results.map(describeResult).join(' ');
}

function describeResult(result: ToolMessage): string {
  if (result.isError === true) {
    // The first sentence is the gist; the page shows the tool's full message anyway.
    return `Sorry, that did not work. ${result.content.split(/(?<=\.)\s/)[0]}`;
  }
  if (result.name === 'deleteUser' && result.content.startsWith('denied by the user')) {
    return `I did not delete it: ${result.content}.`;
  }
  const value = parseJson(result.content);
  if (result.name === 'deleteUser' && isRecord(value)) {
    return value['deleted'] === true
      ? `Deleted user ${String(value['id'])} (${String(value['name'])}).`
      : `There is no user ${String(value['id'])}.`;
  }
  if (result.name === 'getTime' && isRecord(value)) {
    return `It is ${String(value['time'])} on ${String(value['weekday'])} ${String(value['date'])} in ${String(value['city'])} (${String(value['timeZone'])}).`;
  }
  if (result.name === 'usersRegisteredOn' && isRecord(value) && Array.isArray(value['users'])) {
    const names = (value['users'] as unknown[]).map((user) =>
      isRecord(user) ? String(user['name']) : String(user),
    );
    const date = String(value['date']);
    if (names.length === 0) return `Nobody registered on ${date}.`;
    const who = names.length === 1 ? '1 user' : `${names.length} users`;
    return `${who} registered on ${date}: ${names.join(', ')}.`;
  }
  return `${result.name} returned ${result.content}.`;
}

function conversationalAnswer(
  userText: string,
  messages: readonly Message[],
  lastUser: number,
): string {
  const told = MY_NAME_IS.exec(userText);
  if (told !== null) {
    return `Nice to meet you, ${told[1]}! Ask me "what is my name?" later: this browser session's memory (a SQLite file) keeps our conversation.`;
  }
  const earlierUserTexts = messages
    .slice(0, Math.max(lastUser, 0))
    .filter((message) => message.role === 'user')
    .map((message) => message.content);
  if (ASKS_NAME.test(userText)) {
    for (let i = earlierUserTexts.length - 1; i >= 0; i--) {
      const name = MY_NAME_IS.exec(earlierUserTexts[i]);
      if (name !== null) return `Your name is ${name[1]}: you told me earlier in this session.`;
    }
    return 'You have not told me your name in this session. Say "my name is …" and ask again.';
  }
  const remembered =
    earlierUserTexts.length === 0
      ? 'This is the first message of this session.'
      : `I remember ${earlierUserTexts.length} earlier message${earlierUserTexts.length === 1 ? '' : 's'} of yours in this session.`;
  return (
    'I am an offline stand-in: no OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_BASE_URL is set, ' +
    'so I understand only a few questions, but the tool loop, the memory and the streaming you ' +
    `see are real. ${remembered} Try "What time is it in Tokyo and Paris?", ` +
    '"Who registered on 2024-05-03?" or "My name is Ada".'
  );
}

function lastIndexOfRole(messages: readonly Message[], role: Message['role']): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === role) return i;
  return -1;
}

function titleCase(city: string): string {
  return city.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
