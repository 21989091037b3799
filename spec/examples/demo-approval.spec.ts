// The demo's `deleteUser` tool (needs approval) over HTTP: the first request ends with
// `tool-approval-request` events and `awaiting-approval`; the next one carries the
// decisions as `{ decisions: [...] }`; bad decisions get a JSON error and change nothing.
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { FIXED_NOW, fetchJson, postChat, tempDataDir } from './demo-test-kit';

describe('demo server: deleteUser needs approval', () => {
  let server: DemoServer;

  beforeEach(async () => {
    server = await startDemoServer({
      port: 0,
      model: new OfflineDemoModel({ interval: 0, firstChunkDelay: 0 }),
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
    });
  });

  afterEach(() => server.close());

  const ids = async (): Promise<number[]> =>
    ((await fetchJson(server.url, 'api/users')).json.users as { id: number }[]).map((u) => u.id);

  const decide = (cookie: string | undefined, decisions: unknown): ReturnType<typeof postChat> =>
    postChat(server.url, '', { cookie, body: JSON.stringify({ decisions }) });

  it('pauses, then runs the approved call and reports the denied one', async () => {
    const paused = await postChat(server.url, 'Delete users 3 and 5');
    const requests = paused.events.filter((e) => e.event === 'tool-approval-request');
    expect(requests.map((e): unknown => e.data.toolCall.arguments)).toEqual([
      '{"id":3}',
      '{"id":5}',
    ]);
    expect(paused.events.find((e) => e.event === 'finish')?.data.reason).toBe('awaiting-approval');
    expect(paused.events.some((e) => e.event === 'tool-result')).toBe(false);
    expect(await ids()).toHaveLength(12);

    const resumed = await decide(paused.setCookie, [
      { approvalId: requests[0].data.approvalId, approved: true },
      { approvalId: requests[1].data.approvalId, approved: false, reason: 'keep Barbara' },
    ]);
    expect(resumed.status).toBe(200);
    expect(resumed.text).toBe(
      '(offline demo model) Deleted user 3 (Grace Hopper). I did not delete it: denied by the user: keep Barbara.',
    );
    expect(await ids()).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // The table the other tool reads is the same copy.
    const who = await postChat(server.url, 'Who registered on 2024-05-02?', {
      cookie: paused.setCookie,
    });
    expect(who.text).toBe('(offline demo model) Nobody registered on 2024-05-02.');
  });

  it('refuses malformed decisions (400) and decisions for no waiting call (409)', async () => {
    const paused = await postChat(server.url, 'Delete user 3');
    for (const bad of [[], [{ approvalId: 'x' }], 'yes', [{ approvalId: 1, approved: true }]]) {
      const answer = await decide(paused.setCookie, bad);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error).toMatch(/"decisions"/);
    }
    const unknown = await decide(paused.setCookie, [
      { approvalId: 'approval-nope', approved: true },
    ]);
    expect(unknown.status).toBe(409);
    expect(JSON.parse(unknown.body).error).toBe(
      'No tool call of this conversation awaits approval-nope.',
    );
    // Another session has no waiting call.
    const approvalId = paused.events.find((e) => e.event === 'tool-approval-request')?.data
      .approvalId as string;
    const stranger = await decide(undefined, [{ approvalId, approved: true }]);
    expect(stranger.status).toBe(409);
    expect(await ids()).toHaveLength(12);
  });
});
