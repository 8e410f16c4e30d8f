import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiCompatibleLlm } from './llm.js';

/**
 * One deadline for the whole answer (the shared Deadline): a provider that starts streaming and
 * then stalls is cut off like one that never answers, and a quick one is unaffected.
 */
describe('the OpenAI-compatible provider under its deadline', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Given I open "/"' } }] })}\n\n`);
      // The stalling provider never ends its stream; the quick one does.
      if (request.url?.startsWith('/quick')) {
        response.write('data: [DONE]\n\n');
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('ends a stream that stalls at the deadline with a timeout, and lets a quick answer through', async () => {
    const stalling = new OpenAiCompatibleLlm({ baseUrl: `${baseUrl}/stall`, model: 'm', timeoutMs: 300 });
    const started = Date.now();
    await expect(stalling.complete([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      kind: 'timeout',
      message: 'The AI provider did not answer within 300 ms',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const quick = new OpenAiCompatibleLlm({ baseUrl: `${baseUrl}/quick`, model: 'm', timeoutMs: 300 });
    expect(await quick.complete([{ role: 'user', content: 'x' }])).toBe('Given I open "/"');
  });
});
