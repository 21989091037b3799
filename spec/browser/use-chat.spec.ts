// Issue 20.7: the AI SDK's React useChat (@ai-sdk/react) against our SSE endpoint, in headless
// Chromium. The page (examples/use-chat/client/) is bundled with esbuild here, as part of the
// test (into test-output/, gitignored), and renders nothing but useChat's `messages[].parts`
// (and its `status`): every tool part, data part and text below came through useChat's own
// parsing of the 'ai-sdk-ui' stream. Covered: a tool loop, a data part, Stop, resumes after
// a broken connection and after a reload mid-answer, and an approval (Approve and Deny).
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  concat,
  concatMap,
  defer,
  finalize,
  from,
  ignoreElements,
  map,
  Subject,
  take,
  timer,
} from 'rxjs';
import type { ChatChunk, ChatModel } from 'rx-advisors';
import { buildClient, type ClientBundle } from '../../examples/use-chat/build-client';
import { createOfflineModel, STORY } from '../../examples/use-chat/offline-model';
import { startUseChatServer, type UseChatServer } from '../../examples/use-chat/use-chat-server';
import { eventually } from '../sse/support/sse-test-kit';
import { describeWithChromium, launchHeadlessChromium } from './support/headless-chromium';

jest.setTimeout(120_000);

/** 12:00 in Paris, 20:00 in Tokyo. */
const NOW = new Date('2026-12-01T11:00:00Z');
const STORY_WORDS = STORY.match(/\S+\s*/g)!;
/** What the story streams before it waits for the test's `release`. */
const STORY_START = STORY_WORDS.slice(0, 12).join('');

/**
 * The example's offline model, except that "story" answers stream their first 12 words, then
 * wait until the test calls `release()`: a reload or Stop lands mid-answer, deterministically.
 */
class HeldStoryModel implements ChatModel {
  readonly provider = 'offline';
  private readonly offline = createOfflineModel({ interval: 5 });
  private gate = new Subject<void>();
  /** Story answers started, and ended (completed or unsubscribed). */
  started = 0;
  ended = 0;

  stream(request: Parameters<ChatModel['stream']>[0]): ReturnType<ChatModel['stream']> {
    if (!/\bstory\b/i.test(request.lastUserText ?? '')) return this.offline.stream(request);
    return defer(() => {
      this.started++;
      const deltas = (words: string[]) =>
        from(words).pipe(
          concatMap((text) => timer(5).pipe(map((): ChatChunk => ({ type: 'text-delta', text })))),
        );
      return concat(
        deltas(STORY_WORDS.slice(0, 12)),
        this.gate.pipe(take(1), ignoreElements()),
        deltas(STORY_WORDS.slice(12)),
        from<ChatChunk[]>([{ type: 'finish', reason: 'stop' }]),
      ).pipe(finalize(() => this.ended++));
    });
  }

  /** Lets a held story finish. */
  release(): void {
    this.gate.next();
  }

  /** Whether a story is waiting for `release()`. */
  get holding(): boolean {
    return this.gate.observed;
  }
}

interface ShownMessage {
  role: string;
  parts: string[];
  meta: string | null;
}

/** The messages as the page shows them: one line per rendered part. */
function shownMessages(page: Page): Promise<ShownMessage[]> {
  return page.$$eval('.message', (nodes) =>
    nodes.map((node) => ({
      role: (node as HTMLElement).dataset['role'] ?? '',
      parts: Array.from(node.querySelectorAll('.part')).map((part) => {
        const kind = part.classList[1];
        if (kind === 'step-start') return 'step';
        if (kind !== 'tool') return `${kind}: ${part.textContent}`;
        const output = part.querySelector('.output');
        const state = (part as HTMLElement).dataset['state'];
        const buttons = Array.from(part.querySelectorAll('button')).map(
          (b) => ` [${b.textContent}]`,
        );
        return `tool ${part.querySelector('.call')?.textContent} ${state}${output ? ` → ${output.textContent}` : ''}${buttons.join('')}`;
      }),
      meta: node.querySelector('.meta')?.textContent ?? null,
    })),
  );
}

/** Waits until useChat's status is `status` (the page writes it on `.chat`). */
async function waitForStatus(page: Page, status: string): Promise<void> {
  await page.waitForSelector(`.chat[data-status="${status}"]`);
}

async function ask(page: Page, text: string): Promise<void> {
  await page.fill('#message', text);
  await page.press('#message', 'Enter');
}

/** Waits until the server has recorded the chat's answer (it reads each answer to its end). */
async function waitForRecordedAnswer(page: Page): Promise<void> {
  const chatId = new URL(page.url()).searchParams.get('chat')!;
  await page.waitForFunction(async (id) => {
    const response = await fetch(`/api/chat/${id}/messages`);
    return ((await response.json()) as { answering: boolean }).answering === false;
  }, chatId);
}

/** Waits until the last assistant message's text parts read `text`. */
async function waitForAnswerText(page: Page, text: string): Promise<void> {
  await page.waitForFunction((expected) => {
    const answers = document.querySelectorAll('.message.assistant');
    const last = answers[answers.length - 1];
    const texts = last
      ? Array.from(last.querySelectorAll('.part.text')).map((p) => p.textContent)
      : [];
    return texts.join('|') === expected;
  }, text);
}

describeWithChromium(
  'useChat (@ai-sdk/react) against our SSE endpoint, in headless Chromium',
  () => {
    let browser: Browser;
    let bundle: ClientBundle;
    let model: HeldStoryModel;
    let server: UseChatServer;
    let page: Page;

    beforeAll(async () => {
      // The build is part of the test: esbuild bundles React, @ai-sdk/react and the page.
      bundle = await buildClient({
        outdir: join(__dirname, '..', '..', 'test-output', 'use-chat'),
      });
      browser = await launchHeadlessChromium();
    });

    afterAll(async () => {
      await browser?.close();
    });

    beforeEach(async () => {
      model = new HeldStoryModel();
      server = await startUseChatServer({
        bundle,
        model,
        port: 0,
        now: () => NOW,
        users: [1, 2, 3],
        heartbeat: false,
      });
      page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(server.url);
      await page.waitForSelector('#message');
      expect(errors).toEqual([]);
      // Each page makes its own chat id and keeps it in the URL (a reload keeps the chat).
      expect(new URL(page.url()).searchParams.get('chat')).toMatch(/^[\w-]{36}$/);
    });

    afterEach(async () => {
      await page?.close();
      await server?.close();
    });

    it('builds the page with esbuild: React, useChat and the page in one script', () => {
      expect(bundle.bytes).toBeGreaterThan(100_000);
      expect(bundle.js).toContain('/api/chat');
    });

    it('a tool loop: the tool part with its output, the data part and both steps', async () => {
      await ask(page, 'What time is it in Paris?');
      await page.waitForSelector('.message.assistant .meta');
      await waitForStatus(page, 'ready');

      expect(await shownMessages(page)).toEqual([
        { role: 'user', parts: ['text: What time is it in Paris?'], meta: null },
        {
          role: 'assistant',
          parts: [
            'step',
            // One data part (id "status"), replaced in place by the second model call's data.
            'data-status: model call 2, reading 1 tool result',
            'text: Let me look that up.',
            'tool getTime({"city":"Paris"}) output-available → 12:00 in Paris',
            'step',
            'text: getTime: 12:00 in Paris.',
          ],
          meta: 'model calls: 2',
        },
      ]);
    });

    it('an approval: Approve runs the call, Deny gives the model the denial', async () => {
      await ask(page, 'Please delete users 2 and 3');
      await page.waitForSelector('.part.tool[data-state="approval-requested"] >> nth=1');
      await waitForStatus(page, 'ready');
      expect((await shownMessages(page))[1].parts).toEqual([
        'step',
        'data-status: model call 1, reading 0 tool results',
        'text: I will ask before deleting them.',
        'tool deleteUser({"id":2}) approval-requested [Approve] [Deny]',
        'tool deleteUser({"id":3}) approval-requested [Approve] [Deny]',
      ]);
      expect([...server.users]).toEqual([1, 2, 3]); // nothing ran yet

      await page.click('.part.tool[data-state="approval-requested"] >> nth=0 >> button.approve');
      await page.click('.part.tool[data-state="approval-requested"] >> nth=0 >> button.deny');

      // useChat sends the decisions by itself (sendAutomaticallyWhen) and continues the message.
      await waitForAnswerText(
        page,
        'I will ask before deleting them.|deleteUser: deleted user 2. deleteUser: denied by the user: denied on the page.',
      );
      await waitForStatus(page, 'ready');
      const shown = await shownMessages(page);
      expect(shown).toHaveLength(2);
      expect(shown[1].parts).toEqual([
        'step',
        'data-status: model call 2, reading 2 tool results',
        'text: I will ask before deleting them.',
        'tool deleteUser({"id":2}) output-available → deleted user 2',
        'tool deleteUser({"id":3}) output-denied → denied: denied on the page',
        'step',
        'text: deleteUser: deleted user 2. deleteUser: denied by the user: denied on the page.',
      ]);
      expect([...server.users]).toEqual([1, 3]);

      // A reload shows the same message: the server kept the answer as useChat's reader built
      // it (the continued message, with its outcomes), and there is nothing to resume.
      await waitForRecordedAnswer(page);
      await page.reload();
      await page.waitForSelector('.message.assistant .meta');
      await waitForStatus(page, 'ready');
      expect(await shownMessages(page)).toEqual(shown);
      expect(await page.$('.error')).toBeNull();
    });

    it('Stop: useChat stops showing the answer and the server ends it (the model is unsubscribed)', async () => {
      await ask(page, 'Tell me a story');
      await waitForAnswerText(page, STORY_START);
      await waitForStatus(page, 'streaming');
      expect(model.holding).toBe(true);

      await page.click('#stop');
      await waitForStatus(page, 'ready');
      await page.waitForSelector('#stop', { state: 'detached' });
      // The page's DELETE ended the resumable answer: the model's stream was torn down.
      await eventually(() => model.ended === 1, 'the story stream to be unsubscribed');
      expect(model.holding).toBe(false);
      expect((await shownMessages(page))[1].parts).toEqual([
        'step',
        'data-status: model call 1, reading 0 tool results',
        `text: ${STORY_START}`,
      ]);

      // A reload shows what the server recorded of the stopped answer; nothing to resume.
      await waitForRecordedAnswer(page);
      await page.reload();
      await page.waitForSelector('.message.assistant');
      await waitForStatus(page, 'ready');
      expect(await shownMessages(page)).toEqual([
        { role: 'user', parts: ['text: Tell me a story'], meta: null },
        {
          role: 'assistant',
          parts: [
            'step',
            'data-status: model call 1, reading 0 tool results',
            `text: ${STORY_START}`,
          ],
          meta: null,
        },
      ]);
    });

    it('resume: a connection broken mid-answer is resumed by the page, and the answer goes on', async () => {
      await ask(page, 'Tell me a story');
      await waitForAnswerText(page, STORY_START);
      const chatId = new URL(page.url()).searchParams.get('chat')!;
      const resumed = page.waitForResponse(
        (response) =>
          response.request().method() === 'GET' &&
          new URL(response.url()).pathname === `/api/chat/${chatId}/stream`,
      );

      // The server breaks the socket, as a network failure would; the answer keeps running.
      expect(server.dropChatConnections()).toBe(1);
      // useChat reports the disconnect (onFinish isDisconnect); the page calls resumeStream().
      expect((await resumed).status()).toBe(200);
      await waitForStatus(page, 'streaming');
      await waitForAnswerText(page, STORY_START);
      expect(model.holding).toBe(true);

      model.release();
      await waitForAnswerText(page, STORY);
      await waitForStatus(page, 'ready');
      expect(await shownMessages(page)).toEqual([
        { role: 'user', parts: ['text: Tell me a story'], meta: null },
        {
          role: 'assistant',
          parts: ['step', 'data-status: model call 1, reading 0 tool results', `text: ${STORY}`],
          meta: 'model calls: 1',
        },
      ]);
      expect(await page.$('.error')).toBeNull();
      expect(model.started).toBe(1);
    });

    it('resume: a reload mid-answer reconnects (GET …/stream) and the answer goes on', async () => {
      await ask(page, 'Tell me a story');
      await waitForAnswerText(page, STORY_START);
      const chatUrl = page.url();

      // The reload drops the connection mid-answer; the server keeps the answer running.
      const chatId = new URL(chatUrl).searchParams.get('chat')!;
      const resumed = page.waitForResponse(
        (response) =>
          response.request().method() === 'GET' &&
          new URL(response.url()).pathname === `/api/chat/${chatId}/stream`,
      );
      await page.reload();
      expect(page.url()).toBe(chatUrl);
      expect((await resumed).status()).toBe(200);
      await page.waitForSelector('.message.user');
      // useChat's resume: true replays the running answer, then follows it live.
      await waitForAnswerText(page, STORY_START);
      await waitForStatus(page, 'streaming');
      expect(model.holding).toBe(true);

      model.release();
      await waitForAnswerText(page, STORY);
      await waitForStatus(page, 'ready');
      expect(await shownMessages(page)).toEqual([
        { role: 'user', parts: ['text: Tell me a story'], meta: null },
        {
          role: 'assistant',
          parts: ['step', 'data-status: model call 1, reading 0 tool results', `text: ${STORY}`],
          meta: 'model calls: 1',
        },
      ]);
      // One model call: the reload resumed the answer, it did not ask again.
      expect(model.started).toBe(1);
      expect(model.ended).toBe(1);
    });
  },
);
