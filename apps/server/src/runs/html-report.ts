import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CucumberHtmlStream } from '@cucumber/html-formatter';
import { ARTIFACT_REFERENCE } from '@rehearse/contract';

/**
 * Screenshot bytes one rendered page puts back, at most: a large suite's messages stay small with
 * their screenshots named by reference, but the page with all of them back could reach hundreds of
 * megabytes on a download. Past this, the rest stay references (the run's pages show them all).
 */
export const INLINED_SCREENSHOTS_MAX_BYTES = 32 * 1024 * 1024;

/** A stored screenshot's bytes by its artifact id, or undefined when the project holds no such screenshot. */
export type ScreenshotBytes = (id: string) => Promise<Buffer | undefined>;

interface Attachment {
  body?: unknown;
  url?: unknown;
  contentEncoding?: unknown;
}

/**
 * Each JSON object of an NDJSON text, in order (lines that are not one are left out), with every
 * screenshot the runner named by reference (`ARTIFACT_REFERENCE`) put back as the attachment's
 * body, up to `budget` bytes; a reference the project cannot resolve, or past the budget, stays as
 * it is, an image the page cannot show.
 */
async function* envelopesOf(ndjson: string, screenshot: ScreenshotBytes, budget: number): AsyncGenerator<object> {
  const resolved = new Map<string, Promise<Buffer | undefined>>();
  let inlined = 0;
  for (const line of ndjson.split('\n')) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
    const attachment = (parsed as { attachment?: Attachment }).attachment;
    const named =
      attachment && attachment.body === '' && typeof attachment.url === 'string' && attachment.url.startsWith(ARTIFACT_REFERENCE);
    if (named && inlined < budget) {
      const id = (attachment.url as string).slice(ARTIFACT_REFERENCE.length);
      if (!resolved.has(id)) resolved.set(id, screenshot(id));
      const bytes = await resolved.get(id);
      if (bytes && inlined + bytes.length <= budget) {
        inlined += bytes.length;
        const { url: _reference, ...rest } = attachment;
        yield { ...parsed, attachment: { ...rest, body: bytes.toString('base64'), contentEncoding: 'BASE64' } };
        continue;
      }
    }
    yield parsed;
  }
}

/**
 * Cucumber's HTML report of a run, rendered from the run's cucumber messages (NDJSON, as the
 * runner uploads them) with cucumber's own formatter, so the page is the one `rehearse run` writes
 * locally. The messages are the uploader's: the formatter escapes every `<` inside its script tag,
 * so they stay data, and the page is only ever downloaded, never opened in the app's origin.
 */
export async function renderHtmlReport(
  messages: Buffer,
  screenshot: ScreenshotBytes,
  budget = INLINED_SCREENSHOTS_MAX_BYTES,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    Readable.from(envelopesOf(messages.toString('utf8'), screenshot, budget)),
    new CucumberHtmlStream(),
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}
