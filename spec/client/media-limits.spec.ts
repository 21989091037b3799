import { lastValueFrom } from 'rxjs';
import {
  ChatClient,
  InvalidOptionsError,
  MediaLimitError,
  type MediaPart,
  type UserMessage,
} from '../../lib/index';
import { uiMessagesToMessages } from '../../lib/sse/index';
import { MockChatModel } from '../../lib/testing/index';
import type { UiMessage } from '../../lib/ui/ui-message';

// Issue 30, point 10: inline media is limited per part and per request, sized before
// anything is decoded, with a typed error; nothing reaches the model.
const MiB = 1024 * 1024;
const base64Of = (bytes: number): string => 'A'.repeat(Math.ceil(bytes / 3) * 4);
const image = (base64: string): MediaPart => ({ mediaType: 'image/png', data: { base64 } });
const asking = (...media: MediaPart[]): UserMessage => ({
  role: 'user',
  content: 'What is this?',
  media,
});

async function send(client: ChatClient, message: UserMessage): Promise<unknown> {
  return lastValueFrom(client.prompt().messages(message).call().content()).catch(
    (error: unknown) => error,
  );
}

describe('media size limits on ChatClient calls', () => {
  it('refuses a part above the default 20 MiB before any advisor or model runs', async () => {
    const model = MockChatModel.script([{ text: 'A cat.' }]);
    const error = await send(ChatClient.create(model), asking(image(base64Of(21 * MiB))));
    expect(MediaLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ scope: 'part', option: 'maxMediaPartBytes', limit: 20 * MiB });
    expect((error as MediaLimitError).size).toBeGreaterThan(20 * MiB);
    expect(model.calls).toBe(0);
  });

  it('refuses parts that together pass maxMediaRequestBytes, bytes and base64 alike', async () => {
    const model = MockChatModel.script([{ text: 'Two cats.' }]);
    const client = ChatClient.builder(model)
      .defaultMediaLimits({ maxMediaPartBytes: 1000, maxMediaRequestBytes: 1500 })
      .build();
    const bytes: MediaPart = { mediaType: 'image/png', data: { bytes: new Uint8Array(900) } };
    const error = await send(client, asking(image(base64Of(900)), bytes));
    expect(error).toMatchObject({ scope: 'request', size: 1800, limit: 1500 });
    expect(model.calls).toBe(0);
  });

  it('counts media by URL as nothing, and lets parts within the limits through', async () => {
    const model = MockChatModel.script([{ text: 'A cat.' }]);
    const client = ChatClient.builder(model)
      .defaultMediaLimits({ maxMediaPartBytes: 1000, maxMediaRequestBytes: 1000 })
      .build();
    const byUrl: MediaPart = { mediaType: 'image/png', data: { url: 'https://example.com/a.png' } };
    expect(await send(client, asking(image(base64Of(999)), byUrl))).toBe('A cat.');
    expect(model.calls).toBe(1);
  });

  it('rejects bad limits with an InvalidOptionsError', () => {
    const builder = ChatClient.builder(MockChatModel.script([]));
    expect(() => builder.defaultMediaLimits({ maxMediaPartBytes: -1 })).toThrow(
      InvalidOptionsError,
    );
    expect(() => builder.defaultMediaLimits({ maxMediaRequestBytes: 'big' as never })).toThrow(
      '"maxMediaRequestBytes"',
    );
  });
});

describe("uiMessagesToMessages({ files: 'media' }) limits", () => {
  const withFile = (url: string, mediaType = 'image/png'): UiMessage[] => [
    { id: 'u1', role: 'user', parts: [{ type: 'file', url, mediaType }] },
  ];

  it('refuses a data URL above the default part limit from its length', () => {
    const url = `data:image/png;base64,${base64Of(21 * MiB)}`;
    expect(() => uiMessagesToMessages({ messages: withFile(url), files: 'media' })).toThrow(
      MediaLimitError,
    );
  });

  it('applies maxMediaPartBytes and maxMediaRequestBytes over the whole list', () => {
    const url = `data:image/png;base64,${base64Of(600)}`;
    const messages: UiMessage[] = [
      ...withFile(url),
      { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'A cat.' }] },
      ...withFile(url),
    ];
    const convert = (limits: { maxMediaPartBytes?: number; maxMediaRequestBytes?: number }) =>
      uiMessagesToMessages({ messages, files: 'media', ...limits });
    expect(() => convert({ maxMediaPartBytes: 500 })).toThrow(MediaLimitError);
    expect(() => convert({ maxMediaRequestBytes: 1000 })).toThrow(MediaLimitError);
    expect(convert({ maxMediaRequestBytes: 1200 })).toHaveLength(3);
  });

  it("refuses a data URL whose own type contradicts the part's mediaType", () => {
    const url = `data:text/html;base64,${base64Of(30)}`;
    expect(() =>
      uiMessagesToMessages({ messages: withFile(url, 'image/png'), files: 'media' }),
    ).toThrow(InvalidOptionsError);
    expect(
      uiMessagesToMessages({
        messages: withFile(url.replace('text/html', 'IMAGE/PNG')),
        files: 'media',
      }),
    ).toEqual([
      {
        role: 'user',
        content: '',
        media: [{ mediaType: 'image/png', data: { base64: base64Of(30) } }],
      },
    ]);
  });
});
