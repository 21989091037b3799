// Two tools the model chains (today's date, then the users registered on that date) and a
// JSON answer validated into a typed object. Without an API key a scripted model plays
// the model's part; with OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server) the
// same program asks a real one.
//   npx tsx examples/tool-chain.ts
//   OPENAI_API_KEY=sk-… npx tsx examples/tool-chain.ts
import OpenAI from 'openai';
import { ChatClient, tool, type ChatModel, type ToolMessage } from 'rx-advisors';
import { OpenAiChatModel } from 'rx-advisors/openai';
import { MockChatModel } from 'rx-advisors/testing';

const today = () => new Date().toISOString().slice(0, 10);
const registrations: Record<string, string[]> = { [today()]: ['ada', 'grace'] };

const getCurrentDate = tool({
  name: 'getCurrentDate',
  description: "Today's date (UTC), as YYYY-MM-DD.",
  parameters: { type: 'object', properties: {} } as const,
  execute: () => today(),
});
const getUsersRegisteredOn = tool({
  name: 'getUsersRegisteredOn',
  description: 'The names of the users who registered on a date (YYYY-MM-DD).',
  parameters: {
    type: 'object',
    properties: { date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } },
    required: ['date'],
  } as const,
  execute: ({ date }) => registrations[date] ?? [],
});

// The answer's shape: a JSON Schema, from which the entity's type is inferred.
const registeredUsers = {
  type: 'object',
  properties: { date: { type: 'string' }, users: { type: 'array', items: { type: 'string' } } },
  required: ['date', 'users'],
  additionalProperties: false,
} as const;

// No key: a model that decides from what it is sent, as a real one would.
const scripted = MockChatModel.respond((request) => {
  const results = request.messages.filter((m): m is ToolMessage => m.role === 'tool');
  const date = results.find((m) => m.name === 'getCurrentDate')?.content;
  const users = results.find((m) => m.name === 'getUsersRegisteredOn')?.content;
  if (date === undefined) return { toolCalls: [{ name: 'getCurrentDate' }] };
  if (users === undefined) {
    return { toolCalls: [{ name: 'getUsersRegisteredOn', arguments: { date } }] };
  }
  return { text: JSON.stringify({ date, users: JSON.parse(users) as string[] }) };
});

const model: ChatModel = process.env['OPENAI_API_KEY']
  ? new OpenAiChatModel({
      client: new OpenAI(),
      model: process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini',
    })
  : scripted;

ChatClient.builder(model)
  .defaultTools(getCurrentDate, getUsersRegisteredOn)
  .build()
  .prompt('Which users registered today? Use the tools.')
  .call()
  .entity(registeredUsers, { validate: true }) // { date: string; users: string[] }, validated
  .subscribe({
    next: ({ date, users }) =>
      console.log(`${date}: ${users.length} new users (${users.join(', ')})`),
    error: (error: unknown) => {
      console.error(String(error));
      process.exitCode = 1;
    },
  });
