/** One row of the demo's in-memory users table. */
export interface DemoUser {
  id: number;
  name: string;
  email: string;
  /** The registration date, `YYYY-MM-DD`. */
  registeredOn: string;
}

/**
 * The small in-memory table behind the `usersRegisteredOn` tool: made-up users, a few of
 * them registered on the same day so that questions have more than one answer.
 */
export const DEMO_USERS: readonly DemoUser[] = Object.freeze([
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', registeredOn: '2024-05-01' },
  { id: 2, name: 'Alan Turing', email: 'alan@example.com', registeredOn: '2024-05-01' },
  { id: 3, name: 'Grace Hopper', email: 'grace@example.com', registeredOn: '2024-05-02' },
  { id: 4, name: 'Edsger Dijkstra', email: 'edsger@example.com', registeredOn: '2024-05-03' },
  { id: 5, name: 'Barbara Liskov', email: 'barbara@example.com', registeredOn: '2024-05-03' },
  { id: 6, name: 'Donald Knuth', email: 'donald@example.com', registeredOn: '2024-05-03' },
  { id: 7, name: 'Margaret Hamilton', email: 'margaret@example.com', registeredOn: '2024-06-12' },
  { id: 8, name: 'Ken Thompson', email: 'ken@example.com', registeredOn: '2024-06-12' },
  { id: 9, name: 'Frances Allen', email: 'frances@example.com', registeredOn: '2024-07-20' },
  { id: 10, name: 'John Backus', email: 'john@example.com', registeredOn: '2024-08-08' },
  { id: 11, name: 'Radia Perlman', email: 'radia@example.com', registeredOn: '2024-08-08' },
  { id: 12, name: 'Leslie Lamport', email: 'leslie@example.com', registeredOn: '2024-09-30' },
]);
