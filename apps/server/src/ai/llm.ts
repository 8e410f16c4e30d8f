import { Deadline } from '@rehearse/processes';
import type { z } from 'zod';

/**
 * The one door to a language model (DESIGN §8): an OpenAI-compatible chat-completions endpoint
 * (OpenAI, Ollama, vLLM, llama.cpp server), asked with streaming on. Nothing in the product needs
 * it: every caller has a built-in answer or the spec's message to fall back to when this fails.
 */

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type LlmFailure = 'timeout' | 'rate-limited' | 'server' | 'refused' | 'malformed' | 'network';

/** Any way the provider did not give a usable answer; callers fall back on it. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly kind: LlmFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface Llm {
  /** The assistant's whole answer text. */
  complete(messages: LlmMessage[]): Promise<string>;
  /** The answer parsed as JSON (a fenced block is accepted) and checked against `schema`. */
  completeJson<T>(messages: LlmMessage[], schema: z.ZodType<T>): Promise<T>;
}

export interface LlmSettings {
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  timeoutMs: number;
}

/** The provider from the settings, or undefined when AI_BASE_URL is not set (built-in engine only). */
export function createLlm(settings: {
  AI_BASE_URL?: string | undefined;
  AI_API_KEY?: string | undefined;
  AI_MODEL: string;
  AI_TIMEOUT_SECONDS: number;
}): Llm | undefined {
  if (!settings.AI_BASE_URL) return undefined;
  return new OpenAiCompatibleLlm({
    baseUrl: settings.AI_BASE_URL,
    apiKey: settings.AI_API_KEY,
    model: settings.AI_MODEL,
    timeoutMs: settings.AI_TIMEOUT_SECONDS * 1000,
  });
}

export class OpenAiCompatibleLlm implements Llm {
  constructor(private readonly settings: LlmSettings) {}

  async complete(messages: LlmMessage[]): Promise<string> {
    const url = `${this.settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    // One deadline for the whole answer, stream included: a provider that starts answering and
    // then stalls is as unusable as one that never answers.
    const deadline = new Deadline(this.settings.timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream, application/json',
          ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.settings.model, messages, stream: true, temperature: 0 }),
        signal: deadline.signal,
      });
      if (response.status === 429) throw new LlmError('rate-limited', 'The AI provider is rate limiting requests (429)');
      if (response.status >= 500) throw new LlmError('server', `The AI provider failed (${response.status})`);
      if (!response.ok) throw new LlmError('refused', `The AI provider refused the request (${response.status})`);
      const type = response.headers.get('content-type') ?? '';
      // Some servers ignore `stream` and answer one JSON document.
      const text = type.includes('text/event-stream')
        ? await readStream(response)
        : contentOf(await response.json().catch(() => undefined));
      if (text === undefined || text.trim() === '') throw new LlmError('malformed', 'The AI provider gave an empty or malformed answer');
      return text;
    } catch (error) {
      if (error instanceof LlmError) throw error;
      if (deadline.expired) throw new LlmError('timeout', `The AI provider did not answer within ${this.settings.timeoutMs} ms`);
      throw new LlmError('network', `The AI provider could not be reached: ${(error as Error).message}`);
    } finally {
      deadline.dispose();
    }
  }

  async completeJson<T>(messages: LlmMessage[], schema: z.ZodType<T>): Promise<T> {
    const text = await this.complete(messages);
    const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(fenced.trim());
    } catch {
      throw new LlmError('malformed', 'The AI provider did not answer JSON');
    }
    const result = schema.safeParse(parsed);
    if (!result.success) throw new LlmError('malformed', 'The AI provider answered JSON of the wrong shape');
    return result.data;
  }
}

function contentOf(document: unknown): string | undefined {
  const choice = (document as { choices?: Array<{ message?: { content?: unknown } }> } | undefined)?.choices?.[0];
  return typeof choice?.message?.content === 'string' ? choice.message.content : undefined;
}

/** Reads an SSE stream of chat-completion chunks into the answer text. */
async function readStream(response: Response): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let text = '';
  let done = false;
  while (!done) {
    const chunk = await reader.read();
    if (chunk.done) break;
    buffer += chunk.value;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        done = true;
        break;
      }
      let event: { choices?: Array<{ delta?: { content?: unknown } }>; error?: { message?: string } };
      try {
        event = JSON.parse(data) as typeof event;
      } catch {
        throw new LlmError('malformed', 'The AI provider sent a malformed stream event');
      }
      if (event.error) throw new LlmError('server', `The AI provider failed mid-answer: ${event.error.message ?? 'unknown error'}`);
      const piece = event.choices?.[0]?.delta?.content;
      if (typeof piece === 'string') text += piece;
    }
  }
  if (!done) throw new LlmError('malformed', 'The AI provider stream ended without [DONE]');
  await reader.cancel().catch(() => undefined);
  return text;
}
