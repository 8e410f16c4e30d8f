import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small OpenAI-compatible chat-completions server on loopback for the AI provider's tests. It
 * answers the queued scripts in order with the real protocol: SSE chunks ending in `[DONE]` for
 * streaming requests, a JSON completion otherwise, and the errors providers really give.
 */
export type FakeAnswer =
  | { kind: 'text'; text: string; stream?: boolean }
  | { kind: 'status'; status: 429 | 500 | 503 | 401; body?: string }
  | { kind: 'hang' }
  | { kind: 'garbage' }
  | { kind: 'stream-error'; text: string };

export interface FakeLlm {
  baseUrl: string;
  /** Bodies of the requests received, parsed. */
  requests: Array<{ model?: string; stream?: boolean; messages: Array<{ role: string; content: string }>; authorization?: string }>;
  answer(...answers: FakeAnswer[]): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const queue: FakeAnswer[] = [];
  const requests: FakeLlm['requests'] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(await readBody(request)) as FakeLlm['requests'][number];
      requests.push({ ...body, ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
      const answer = queue.shift() ?? { kind: 'status', status: 500, body: '{"error":{"message":"no scripted answer"}}' };
      const chunk = (content: string) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;
      switch (answer.kind) {
        case 'status':
          response
            .writeHead(answer.status, { 'content-type': 'application/json' })
            .end(answer.body ?? JSON.stringify({ error: { message: `status ${answer.status}` } }));
          return;
        case 'hang':
          // Never answers; released when the server closes.
          hanging.add(() => response.destroy());
          return;
        case 'garbage':
          response.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {not json\n\n');
          return;
        case 'stream-error':
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write(chunk(answer.text));
          response.end(`data: ${JSON.stringify({ error: { message: 'model overloaded' } })}\n\n`);
          return;
        case 'text':
          if (answer.stream === false || !body.stream) {
            response.writeHead(200, { 'content-type': 'application/json' }).end(
              JSON.stringify({
                id: 'c1',
                object: 'chat.completion',
                choices: [{ index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' }],
              }),
            );
            return;
          }
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          // Split into a few chunks, as real servers stream tokens.
          for (let i = 0; i < answer.text.length; i += 7) response.write(chunk(answer.text.slice(i, i + 7)));
          response.end('data: [DONE]\n\n');
          return;
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answer: (...answers) => queue.push(...answers),
    close: async () => {
      for (const release of hanging) release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
