import { tool, type Tool } from '../../lib/index.js';
import type { DemoUser } from './users-table.js';

/** What the `deleteUser` tool returns (and the model sees as JSON). */
export interface DeleteUserResult {
  id: number;
  deleted: boolean;
  /** The deleted user's name (absent when no user had this id). */
  name?: string;
}

/** Options of {@link createDeleteUserTool}. */
export interface DeleteUserToolOptions {
  /** The table to delete from: a mutable copy (the server's own), changed in place. */
  users: DemoUser[];
}

const parameters = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1, description: 'The id of the user' } },
  required: ['id'],
  additionalProperties: false,
} as const;

/**
 * The demo tool "delete a user": it needs the user's approval (`needsApproval: true`), so
 * the stream stops with a `tool-approval-request` and the page shows Approve / Deny; the
 * call runs only when the next request approves it.
 *
 * @example
 * ```ts
 * const users = DEMO_USERS.map((user) => ({ ...user }));
 * client.prompt('Delete user 3').tools(createDeleteUserTool({ users })).stream().chunks();
 * ```
 * @param options The mutable table.
 * @returns The tool, named `deleteUser`.
 */
export function createDeleteUserTool(
  options: DeleteUserToolOptions,
): Tool<{ id: number }, DeleteUserResult> {
  const { users } = options;
  return tool({
    name: 'deleteUser',
    description: 'Deletes the user with the given id from our application (asks for approval).',
    parameters,
    needsApproval: true,
    execute: ({ id }): DeleteUserResult => {
      const at = users.findIndex((user) => user.id === id);
      if (at < 0) return { id, deleted: false };
      const [removed] = users.splice(at, 1);
      return { id, deleted: true, name: removed.name };
    },
  });
}
