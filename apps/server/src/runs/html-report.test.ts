import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from './html-report.js';

const byReference = (id: string) =>
  JSON.stringify({ attachment: { body: '', contentEncoding: 'BASE64', mediaType: 'image/png', url: `rehearse-artifact:${id}` } });

describe("a run's HTML report rendered from its messages", () => {
  it('puts screenshots back up to its byte budget, and reads none once the budget is spent', async () => {
    const read: string[] = [];
    const shots: Record<string, Buffer> = {
      one: Buffer.alloc(600, 1),
      two: Buffer.alloc(600, 2),
      three: Buffer.alloc(400, 3),
      four: Buffer.alloc(10, 4),
    };
    const messages = Buffer.from(Object.keys(shots).map(byReference).join('\n'));
    const page = (
      await renderHtmlReport(
        messages,
        async (id) => {
          read.push(id);
          return shots[id];
        },
        1_000,
      )
    ).toString('utf8');
    const inlined = (id: string) => page.includes(`"body":"${shots[id]!.toString('base64')}"`);
    const named = (id: string) => page.includes(`"url":"rehearse-artifact:${id}"`);
    // The second would pass the budget and stays a reference; the third fits and spends it; the fourth is not read.
    expect(Object.keys(shots).map((id) => [id, inlined(id), named(id)])).toEqual([
      ['one', true, false],
      ['two', false, true],
      ['three', true, false],
      ['four', false, true],
    ]);
    expect(read).toEqual(['one', 'two', 'three']);
  });
});
