import { Messages } from '@rehearse/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors.js';

/** Fastify's own client-error codes and the sentence each becomes. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: Messages.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: Messages.invalidJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: Messages.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: Messages.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: Messages.invalidJson },
};

/**
 * Maps every error to the spec's `{status:false, error}` answer: a 4xx with a sentence for bad
 * input, a generic 500 (logged with its stack, never sent) for our own faults.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.statusCode).send({ status: false, error: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const message = first?.message ?? 'Invalid request.';
      return reply.status(400).send({ status: false, error: message });
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.status(known.status).send({ status: false, error: known.message });
    if (error.statusCode === 429) {
      return reply.status(429).send({ status: false, error: Messages.tooManyRequests });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.status(error.statusCode).send({ status: false, error: error.message });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match the contract');
    } else {
      request.log.error({ err: error }, 'unhandled error');
    }
    return reply.status(500).send({ status: false, error: Messages.internal });
  });
}

/**
 * JSON bodies must be valid UTF-8: Node would otherwise swap bad bytes for U+FFFD and store
 * text the client never sent. Parsing itself stays Fastify's (with its prototype-poisoning guard).
 */
export function installStrictJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decoder.decode(body as Buffer);
    } catch {
      done(new AppError(400, Messages.invalidUtf8), undefined);
      return;
    }
    // Fastify's parser answers through `done`; its return value carries nothing.
    void parseJson(request, text, done);
  });
}
