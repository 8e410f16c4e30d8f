import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Envelope } from './builder.js';
import { planFormats, redactEnvelope } from './formats.js';

describe('planFormats', () => {
  const out = path.join('/tmp', 'out');

  it("writes cucumber's JUnit, JSON, HTML and messages into the output folder and nothing to stdout by default", () => {
    expect(planFormats(out, [], {})).toEqual({
      files: {
        [`${out}/junit.xml`]: 'junit',
        [`${out}/cucumber.json`]: 'json',
        [`${out}/report.html`]: 'html',
        [`${out}/messages.ndjson`]: 'message',
      },
      options: {},
    });
  });

  it('moves a default formatter named with a file of its own, adds the others, and takes the last one without a file for stdout', () => {
    const plan = planFormats(out, ['junit:ci/junit.xml', './my-formatter.mjs:custom.txt', 'summary', ['progress']], {
      html: { externalAttachments: true },
    });
    expect(plan).toEqual({
      stdout: 'progress',
      files: {
        [`${out}/cucumber.json`]: 'json',
        [`${out}/report.html`]: 'html',
        [`${out}/messages.ndjson`]: 'message',
        'ci/junit.xml': 'junit',
        'custom.txt': './my-formatter.mjs',
      },
      options: { html: { externalAttachments: true } },
    });
  });

  it('writes only the defaults a caller keeps (a warm runner: the JUnit XML and HTML it uploads), and every format asked for', () => {
    const plan = planFormats(out, ['message:ci/messages.ndjson'], {}, { 'junit.xml': 'junit', 'report.html': 'html' });
    expect(plan).toEqual({
      files: { [`${out}/junit.xml`]: 'junit', [`${out}/report.html`]: 'html', 'ci/messages.ndjson': 'message' },
      options: {},
    });
  });
});

describe('redactEnvelope', () => {
  const redact = (text: string) => text.split('hunter22').join('****');

  it('copies a message with the secret replaced in every text and mask: literals hidden, leaving the original alone', () => {
    const envelope = {
      testStepFinished: {
        testStepResult: {
          status: 'FAILED',
          message: 'The page does not show "hunter22"',
          exception: { type: 'Error', message: 'hunter22 was typed' },
        },
      },
    } as unknown as Envelope;
    const pickle = { pickle: { name: 'Sign in', steps: [{ text: 'I fill "Password" with "mask:opensesame"' }] } } as unknown as Envelope;
    expect(JSON.stringify(redactEnvelope(envelope, redact))).not.toContain('hunter22');
    expect(redactEnvelope(pickle, redact).pickle!.steps[0]!.text).toBe('I fill "Password" with "mask:****"');
    expect(envelope.testStepFinished!.testStepResult.message).toContain('hunter22');
  });

  it('leaves the bytes of a base64 attachment as they are and redacts a text attachment', () => {
    const image = {
      attachment: { body: 'aHVudGVyMjI=hunter22', contentEncoding: 'BASE64', mediaType: 'image/png' },
    } as unknown as Envelope;
    const text = { attachment: { body: 'token hunter22', contentEncoding: 'IDENTITY', mediaType: 'text/plain' } } as unknown as Envelope;
    expect(redactEnvelope(image, redact).attachment!.body).toBe('aHVudGVyMjI=hunter22');
    expect(redactEnvelope(text, redact).attachment!.body).toBe('token ****');
  });
});
