import { tool, type Tool } from 'rx-advisors';

/**
 * The `deleteUser({ id })` tool: removes an id from the server's list of users. It needs
 * approval (`needsApproval: true`): the answer stops with a `tool-approval-request`, and the
 * call runs only when the next request (useChat's `addToolApprovalResponse`) approves it.
 *
 * @example
 * ```ts
 * const users = new Set([1, 2, 3]);
 * const deleteUser = createDeleteUserTool(users);
 * ```
 * @param users The server's users, changed in place.
 * @returns The tool.
 */
export function createDeleteUserTool(users: Set<number>): Tool<{ id: number }, string> {
  return tool({
    name: 'deleteUser',
    description: 'Deletes the user with this id (asks the user for approval first).',
    parameters: {
      type: 'object',
      properties: { id: { type: 'integer', minimum: 1 } },
      required: ['id'],
      additionalProperties: false,
    },
    needsApproval: true,
    execute: ({ id }) => (users.delete(id) ? `deleted user ${id}` : `there is no user ${id}`),
  });
}
