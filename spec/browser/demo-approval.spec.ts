// The demo's tool that needs approval, in a real browser (headless Chromium via
// playwright-core): the user asks to delete two users, the answer stops with Approve / Deny
// buttons, the test approves one call and denies the other, and checks the answer and the
// server's users table (GET /api/users).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { FIXED_NOW, tempDataDir } from '../examples/demo-test-kit';
import { describeWithChromium } from './support/headless-chromium';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

jest.setTimeout(120_000);

describeWithChromium('demo page: a tool call that needs approval', () => {
  let browser: Browser;
  let server: DemoServer;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}; set CHROMIUM_PATH.`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    server = await startDemoServer({
      port: 0,
      model: new OfflineDemoModel({ interval: 5, firstChunkDelay: 20 }),
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
    });
    page = await browser.newPage();
  });

  afterAll(async () => {
    await page?.close();
    await server?.close();
    await browser?.close();
  });

  const userIds = async (): Promise<number[]> => {
    const response = await fetch(new URL('/api/users', server.url));
    const { users } = (await response.json()) as { users: { id: number }[] };
    return users.map((user) => user.id);
  };

  it('approves one deletion and denies the other: the answer says so, the table lost one user', async () => {
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#message', 'Please delete users 3 and 5');
    await page.press('#message', 'Enter');

    // The answer stops and asks: nothing was deleted yet.
    await page.waitForSelector('.tool-call.awaiting-approval >> nth=1');
    await page.waitForSelector('#send:not([disabled])');
    const waiting = await page.$$eval('.tool-call', (nodes) => nodes.map((n) => n.textContent));
    expect(waiting).toEqual([
      'needs your approvaldeleteUser({"id":3})ApproveDeny',
      'needs your approvaldeleteUser({"id":5})ApproveDeny',
    ]);
    expect(await page.textContent('.message.assistant .usage')).toMatch(
      /finish: awaiting-approval$/,
    );
    expect(await userIds()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

    await page.click('.tool-call[data-approval-id] >> nth=0 >> button.approve');
    await page.click('.tool-call[data-approval-id] >> nth=1 >> button.deny');

    // The decisions went out as the next request; its answer reports both outcomes.
    await page.waitForFunction(
      `document.querySelectorAll('.message.assistant').length === 2 && !document.querySelector('.message.assistant.streaming') && document.querySelectorAll('.message.assistant')[1].querySelector('.usage').textContent !== ''`,
    );
    const answers = await page.$$eval('.message.assistant .answer', (n) =>
      n.map((a) => a.textContent),
    );
    expect(answers[1]).toBe(
      '(offline demo model) Deleted user 3 (Grace Hopper). I did not delete it: denied by the user: denied on the demo page.',
    );
    const users = await page.$$eval('.message.user', (n) => n.map((m) => m.textContent));
    expect(users[1]).toBe('Approved deleteUser({"id":3}); Denied deleteUser({"id":5})');
    expect(await userIds()).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });
});
