import { TokenWindowChatMemory, type Message } from '../../lib/index';

describe('TokenWindowChatMemory: the estimate of images and files', () => {
  const memory = new TokenWindowChatMemory({ maxTokens: 100_000 });

  it('counts each image or file as 1,600 tokens (6,400 characters at 4 a token)', () => {
    const message: Message = {
      role: 'user',
      content: 'abcd',
      media: [
        { mediaType: 'image/png', data: { url: 'https://example.com/a.png' } },
        { mediaType: 'application/pdf', data: { base64: 'JVBERi0xLjQK' } },
      ],
    };
    expect(memory.estimate('c', message)).toBe(1 + 2 * 1600);
    const tool: Message = {
      role: 'tool',
      toolCallId: 'c1',
      name: 'shot',
      content: '',
      media: [{ mediaType: 'image/png', data: { bytes: new Uint8Array(4) } }],
    };
    expect(memory.estimate('c', tool)).toBe(1 + 1600);
  });

  it('counts an inline text file by its size', () => {
    const message: Message = {
      role: 'user',
      content: '',
      media: [{ mediaType: 'text/plain', data: { bytes: new Uint8Array(400) } }],
    };
    expect(memory.estimate('c', message)).toBe(100);
  });
});
