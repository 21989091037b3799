import type { UIMessage } from 'ai';
import { uiMessagesToMessages } from '../../lib/ui/ui-messages-to-messages.js';

describe("uiMessagesToMessages: files: 'media'", () => {
  const user: UIMessage = {
    id: 'u1',
    role: 'user',
    parts: [
      { type: 'text', text: 'Read these.' },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'a.pdf',
        url: 'data:application/pdf;base64,JVBERi0xLjQK',
      },
      { type: 'file', mediaType: 'image/png', url: 'https://x.example/b.png' },
      // Neither inline base64 nor http(s): stays a text line through the `file` option.
      { type: 'file', mediaType: 'text/plain', url: 'data:text/plain,hi' },
    ],
  };

  it('turns user file parts into media: data URLs inline, http(s) URLs by reference', () => {
    expect(uiMessagesToMessages({ messages: [user], files: 'media' })).toEqual([
      {
        role: 'user',
        content: 'Read these.\n[file: unnamed (text/plain)]',
        media: [
          { mediaType: 'application/pdf', data: { base64: 'JVBERi0xLjQK' }, filename: 'a.pdf' },
          { mediaType: 'image/png', data: { url: 'https://x.example/b.png' } },
        ],
      },
    ]);
  });

  it("keeps the text lines by default and with files: 'text'", () => {
    const [byDefault] = uiMessagesToMessages({ messages: [user] });
    expect(byDefault).not.toHaveProperty('media');
    expect(byDefault.content).toContain('[file: a.pdf (application/pdf)]');
    expect(uiMessagesToMessages({ messages: [user], files: 'text' })).toEqual([byDefault]);
  });

  it('keeps a message with only a file (empty text) when files become media', () => {
    const onlyImage: UIMessage = {
      id: 'u2',
      role: 'user',
      parts: [{ type: 'file', mediaType: 'image/png', url: 'https://x.example/b.png' }],
    };
    expect(
      uiMessagesToMessages({ messages: [onlyImage], files: 'media', history: 'memory' }),
    ).toEqual([
      {
        role: 'user',
        content: '',
        media: [{ mediaType: 'image/png', data: { url: 'https://x.example/b.png' } }],
      },
    ]);
  });
});
