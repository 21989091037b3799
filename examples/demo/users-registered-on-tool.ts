import { tool, type Tool } from '../../lib/index.js';
import { DEMO_USERS, type DemoUser } from './users-table.js';

/** What the `usersRegisteredOn` tool returns (and the model sees as JSON). */
export interface UsersRegisteredOnResult {
  date: string;
  count: number;
  users: Pick<DemoUser, 'id' | 'name' | 'email'>[];
}

/** Options of {@link createUsersRegisteredOnTool}. */
export interface UsersRegisteredOnToolOptions {
  /** The table to search; default {@link DEMO_USERS}. */
  users?: readonly DemoUser[];
}

const parameters = {
  type: 'object',
  properties: {
    date: {
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: 'The registration date, formatted YYYY-MM-DD',
    },
  },
  required: ['date'],
  additionalProperties: false,
} as const;

/**
 * The demo tool "users registered on a date", over a small in-memory table. A date the
 * schema rejects (not `YYYY-MM-DD`) never reaches `execute`: the tool loop hands the
 * model a validation error instead.
 *
 * @example
 * ```ts
 * const usersRegisteredOn = createUsersRegisteredOnTool();
 * client.prompt('Who registered on 2024-05-01?').tools(usersRegisteredOn).stream().content();
 * ```
 * @param options The table to search.
 * @returns The tool, named `usersRegisteredOn`.
 */
export function createUsersRegisteredOnTool(
  options: UsersRegisteredOnToolOptions = {},
): Tool<{ date: string }, UsersRegisteredOnResult> {
  const { users = DEMO_USERS } = options;
  return tool({
    name: 'usersRegisteredOn',
    description: 'Lists the users of our application who registered on a given date (YYYY-MM-DD).',
    parameters,
    execute: ({ date }): UsersRegisteredOnResult => {
      const found = users
        .filter((user) => user.registeredOn === date)
        .map(({ id, name, email }) => ({ id, name, email }));
      return { date, count: found.length, users: found };
    },
  });
}
