import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient, InvalidOptionsError, type ChatChunk } from '../../lib/index';
import {
  GuardrailsAdvisor,
  PiiDetectors,
  piiRedaction,
  type PiiDetector,
} from '../../lib/guardrails/index';
import { MockChatModel } from '../../lib/testing/index';
import { seededRandom as random } from '../support/seeded-random';

const pii = piiRedaction();

/** Feeds `pieces` through one scanner: the redacted text. */
const streamed = (pieces: readonly string[]): string => {
  const scanner = pii.scanner();
  return pieces.map((piece) => scanner.write(piece)).join('') + scanner.end();
};

const SAMPLES = [
  'Mail bob.smith+x@mail.example.com. Card 4111 1111 1111 1111, ok?',
  'Call +33 1 23 45 67 89 or (555) 123-4567; IBAN DE89 3704 0044 0532 0130 00 thanks',
  'Keys: sk-proj-abcdefghijklmnop1234 and AKIAABCDEFGHIJKLMNOP, not sk-short.',
  'Not PII: 4111 1111 1111 1112, 2024-2025, 12 cats, a@b, x@y.z, 3.14159265358979',
  '5500-0000-0000-0004 5500 0000 0000 0004 ==> two cards, joe@ex.io',
];

describe('piiRedaction', () => {
  it('redacts each built-in kind and leaves look-alikes alone', () => {
    expect(pii.redact(SAMPLES[0])).toBe('Mail [email]. Card [card], ok?');
    expect(pii.redact(SAMPLES[1])).toBe('Call [phone] or [phone]; IBAN [iban] thanks');
    expect(pii.redact(SAMPLES[2])).toBe('Keys: [api-key] and [api-key], not sk-short.');
    expect(pii.redact(SAMPLES[3])).toBe(SAMPLES[3]);
  });

  it('gives the same redaction for every split of a text into two and three chunks', () => {
    for (const text of SAMPLES) {
      const whole = pii.redact(text);
      for (let i = 0; i <= text.length; i++) {
        expect([text, i, streamed([text.slice(0, i), text.slice(i)])]).toEqual([text, i, whole]);
        for (let j = i; j <= text.length; j += 3) {
          const pieces = [text.slice(0, i), text.slice(i, j), text.slice(j)];
          expect([text, i, j, streamed(pieces)]).toEqual([text, i, j, whole]);
        }
      }
    }
  });

  it('gives the same redaction for random splits into many chunks, one character chunks included', () => {
    const next = random(29);
    for (const text of SAMPLES) {
      const whole = pii.redact(text);
      expect(streamed([...text])).toBe(whole);
      for (let round = 0; round < 200; round++) {
        const pieces: string[] = [];
        for (let i = 0; i < text.length;) {
          const size = Math.floor(next() * 8);
          pieces.push(text.slice(i, i + size));
          i += size;
        }
        expect([pieces, streamed(pieces)]).toEqual([pieces, whole]);
      }
    }
  });

  it('never lets the first digit of a card out before the number is decided', () => {
    const scanner = pii.scanner();
    const out = [
      scanner.write('pay with 4111 11'),
      scanner.write('11 1111 1111 now'),
      scanner.end(),
    ];
    expect(out[0]).toBe('pay with');
    expect(out.join('')).toBe('pay with [card] now');
  });

  it('reads each character at most once per detector on adversarial inputs (linear time)', () => {
    const adversarial = [
      'a@'.repeat(50_000),
      '4'.repeat(100_000),
      '1 '.repeat(50_000),
      'DE89 '.repeat(20_000),
      'sk-'.repeat(30_000),
      'a.'.repeat(50_000) + '@',
      '(1) '.repeat(25_000),
      'é@1'.repeat(30_000),
    ];
    for (const text of adversarial) {
      let reads = 0;
      let detected = 0;
      const counted = Object.values(PiiDetectors).map((d): PiiDetector => ({
        ...d,
        isRunChar: (code) => (reads++, d.isRunChar(code)),
        detect: (run) => ((detected += run.length), d.detect(run)),
      }));
      const scanner = piiRedaction({ detectors: counted }).scanner();
      for (let i = 0; i < text.length; i += 7) scanner.write(text.slice(i, i + 7));
      scanner.end();
      // The ASCII classes are asked once per detector list (a table of 128 codes), other
      // code units once each at most: never more than once per character and detector.
      expect(reads).toBeLessThanOrEqual(128 * counted.length + text.length * counted.length);
      // Every character is in at most one run per detector; runs over maxLength are not read.
      expect(detected).toBeLessThanOrEqual(text.length * counted.length);
    }
  });

  it('takes detectors of your own', () => {
    const employeeId: PiiDetector = {
      name: 'employee-id',
      replacement: '[employee]',
      maxLength: 8,
      isRunChar: (code) => (code >= 48 && code <= 57) || code === 69 || code === 45,
      detect: (run) => (/^E-\d{6}$/.test(run) ? { start: 0, end: run.length } : undefined),
    };
    const custom = piiRedaction({ extraDetectors: [employeeId] });
    expect(custom.redact('ask E-123456 at bob@example.com')).toBe('ask [employee] at [email]');
    expect(() => piiRedaction({ detectors: [{ name: 'x' } as PiiDetector] })).toThrow(
      InvalidOptionsError,
    );
  });

  it('redacts a streamed answer in GuardrailsAdvisor, whatever the chunking', async () => {
    const text = SAMPLES[1];
    const next = random(7);
    const pieces: string[] = [];
    for (let i = 0; i < text.length;) {
      const size = 1 + Math.floor(next() * 6);
      pieces.push(text.slice(i, i + size));
      i += size;
    }
    const model = MockChatModel.script([{ text: pieces }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new GuardrailsAdvisor({ redact: pii }))
      .build();
    const chunks = await lastValueFrom(client.prompt('x').stream().chunks().pipe(toArray()));
    const deltas = chunks.flatMap((c: ChatChunk) => (c.type === 'text-delta' ? [c.text] : []));
    expect(deltas.join('')).toBe(pii.redact(text));
    expect(deltas.join('')).not.toMatch(/\d{2}/);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });
});
