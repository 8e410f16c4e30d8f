import { describe, expect, it } from 'vitest';
import { screenshotsByReference } from './messages.js';

const STORED = 'a'.repeat(64);
const NOT_STORED = 'b'.repeat(64);
const attachment = (fields: Record<string, string>) =>
  JSON.stringify({ attachment: { body: 'iVBORw0KGgo=', contentEncoding: 'BASE64', mediaType: 'image/png', testStepId: 's1', ...fields } });

describe('cucumber messages as the server keeps them', () => {
  it('names a stored screenshot by its id on the server instead of carrying it, and keeps every other line as written', () => {
    const lines = [
      JSON.stringify({ meta: { protocolVersion: '27.0.0' } }),
      attachment({ fileName: `${STORED}.png` }),
      attachment({ fileName: `${NOT_STORED}.png` }),
      attachment({ fileName: `${STORED}.png`, mediaType: 'image/jpeg' }),
      JSON.stringify({ attachment: { body: '{"kind":"initial"}', contentEncoding: 'IDENTITY', mediaType: 'application/json' } }),
      '{"attachment": cut short',
      '',
    ];
    const kept = screenshotsByReference(Buffer.from(lines.join('\n')), new Map([[STORED, 'server-id-1']]))
      .toString('utf8')
      .split('\n');
    expect(kept[1]).toBe(
      JSON.stringify({
        attachment: {
          body: '',
          contentEncoding: 'BASE64',
          mediaType: 'image/png',
          testStepId: 's1',
          fileName: `${STORED}.png`,
          url: 'rehearse-artifact:server-id-1',
        },
      }),
    );
    expect([kept[0], ...kept.slice(2)]).toEqual([lines[0], ...lines.slice(2)]);
  });
});
