import { InvalidOptionsError } from 'rx-advisors';
import { McpToolError, McpToolSource } from 'rx-advisors/mcp';
import { mcpResultContent } from '../../lib/mcp/mcp-result-content.js';

const options = {
  toolName: 't',
  hasOutputSchema: false,
  maxResultLength: 1_000,
  resultMedia: 'describe' as 'attach' | 'describe',
  maxResultMediaBytes: 100,
};
const attaching = { ...options, resultMedia: 'attach' as const };
/** The text of a result (in `describe` mode unless told: no media). */
const mcpResultText = (result: unknown, opts = options): string => {
  const converted = mcpResultContent(result, opts);
  if (opts.resultMedia === 'describe') expect(converted.media).toBeUndefined();
  return converted.content;
};
const errorOf = (result: unknown, opts = options): McpToolError => {
  try {
    mcpResultContent(result, opts);
  } catch (error) {
    if (McpToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('no error');
};

describe('mcpResultContent', () => {
  it('joins text parts with newlines', () => {
    const result = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    };
    expect(mcpResultText(result, options)).toBe('a\nb');
  });

  it('uses structuredContent when the tool declares an output schema, else the text', () => {
    const result = {
      content: [{ type: 'text', text: '21 degrees' }],
      structuredContent: { c: 21 },
    };
    expect(mcpResultText(result, { ...options, hasOutputSchema: true })).toBe('{"c":21}');
    expect(mcpResultText(result, options)).toBe('21 degrees');
    expect(mcpResultText({ content: [], structuredContent: { c: 21 } }, options)).toBe('{"c":21}');
  });

  it('turns audio, embedded resources and unknown parts into short references', () => {
    const result = {
      content: [
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'secret' },
        },
        { type: 'hologram' },
      ],
    };
    expect(mcpResultText(result, options)).toBe(
      '[audio: audio/wav, 3 bytes]\n[resource: file:///a.txt (text/plain)]\n[hologram content]',
    );
  });

  it('reads the 2024-10-07 toolResult shape', () => {
    expect(mcpResultText({ toolResult: { ok: true } }, options)).toBe('{"ok":true}');
  });

  it('isError: true throws with the text, or a generic message without one', () => {
    expect(errorOf({ isError: true, content: [{ type: 'text', text: 'no' }] })).toMatchObject({
      message: 'no',
      reason: 'tool-error',
      toolName: 't',
    });
    expect(errorOf({ isError: true, content: [] }).message).toBe(
      'The MCP tool "t" reported an error.',
    );
  });

  it('malformed results throw a McpToolError with reason malformed', () => {
    for (const bad of [
      null,
      'text',
      { content: {} },
      { content: [42] },
      { content: [{ type: 'text' }] },
    ]) {
      expect(errorOf(bad).reason).toBe('malformed');
    }
  });

  it('a text longer than maxResultLength is refused', () => {
    const result = { content: [{ type: 'text', text: 'x'.repeat(11) }] };
    expect(errorOf(result, { ...options, maxResultLength: 10 }).reason).toBe('too-long');
    expect(mcpResultText(result, { ...options, maxResultLength: 11 })).toHaveLength(11);
  });

  it("with resultMedia 'attach', images, audio and blob resources also become media", () => {
    const result = {
      content: [
        { type: 'text', text: 'Chart:' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: {
            uri: 'file:///out/report.pdf?v=2',
            mimeType: 'application/pdf',
            blob: 'JVBERi0=',
          },
        },
        { type: 'resource', resource: { uri: 'mem://blob', blob: 'AAEC' } },
        {
          type: 'resource',
          resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hi' },
        },
      ],
    };

    expect(mcpResultContent(result, attaching)).toEqual({
      content:
        'Chart:\n[image: image/png, 8 bytes]\n[audio: audio/wav, 4 bytes]\n' +
        '[resource: file:///out/report.pdf?v=2 (application/pdf)]\n[resource: mem://blob]\n' +
        '[resource: file:///a.txt (text/plain)]',
      media: [
        { mediaType: 'image/png', data: { base64: 'iVBORw0KGgo=' } },
        { mediaType: 'audio/wav', data: { base64: 'UklGRg==' } },
        { mediaType: 'application/pdf', data: { base64: 'JVBERi0=' }, filename: 'report.pdf' },
        { mediaType: 'application/octet-stream', data: { base64: 'AAEC' }, filename: 'blob' },
      ],
    });
    // The same result described: the text is the same, nothing is attached.
    expect(mcpResultText(result)).toBe(mcpResultContent(result, attaching).content);
  });

  it('attaches nothing for an error result, or a tool whose structuredContent is the answer', () => {
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    expect(errorOf({ isError: true, content: [image] }, attaching).reason).toBe('tool-error');
    expect(
      mcpResultContent(
        { content: [image], structuredContent: { ok: true } },
        { ...attaching, hasOutputSchema: true },
      ),
    ).toEqual({ content: '{"ok":true}' });
  });

  it('refuses more media than maxResultMediaBytes, and a binary part without a type', () => {
    const image = (bytes: number) => ({
      type: 'image',
      data: Buffer.alloc(bytes, 1).toString('base64'),
      mimeType: 'image/png',
    });
    expect(mcpResultContent({ content: [image(60), image(40)] }, attaching).media).toHaveLength(2);
    const error = errorOf({ content: [image(60), image(41)] }, attaching);
    expect(error.reason).toBe('too-long');
    expect(error.message).toMatch(
      /101 bytes of images and files, more than maxResultMediaBytes \(100\)/,
    );
    // Described, the same result is only text: the media limit does not apply.
    expect(mcpResultText({ content: [image(60), image(41)] })).toContain(
      '[image: image/png, 41 bytes]',
    );
    expect(errorOf({ content: [{ type: 'image', data: 'AAAA' }] }, attaching).reason).toBe(
      'malformed',
    );
  });
});

describe('McpToolSource media options', () => {
  it('rejects a resultMedia other than attach or describe, and a bad maxResultMediaBytes', () => {
    const server = { url: 'http://127.0.0.1:1/mcp' };
    expect(() => new McpToolSource({ server, resultMedia: 'inline' as 'attach' })).toThrow(
      InvalidOptionsError,
    );
    expect(() => new McpToolSource({ server, maxResultMediaBytes: 0 })).toThrow(
      /maxResultMediaBytes/,
    );
    expect(() => new McpToolSource({ server, resultMedia: 'describe' })).not.toThrow();
  });
});
