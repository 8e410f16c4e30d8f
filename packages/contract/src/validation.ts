import { z } from 'zod';
import { Limits } from './constants.js';
import { Messages } from './messages.js';

/** A required string field whose absence and emptiness both give `message`. */
export function requiredText(message: string, max?: { length: number; message: string }) {
  const base = z.string({ error: message }).trim().min(1, message);
  return max ? base.max(max.length, max.message) : base;
}

export const EmailAddress = z
  .string({ error: Messages.emailInvalid })
  .trim()
  .toLowerCase()
  .max(254, Messages.emailInvalid)
  .pipe(z.email({ error: Messages.emailInvalid }));

export const Password = z
  .string({ error: Messages.passwordTooShort })
  .min(Limits.passwordMin, Messages.passwordTooShort)
  .max(Limits.passwordMax, Messages.passwordTooLong);

export const ProjectId = z.uuid({ error: Messages.projectIdInvalid });

/** True for an absolute http or https URL with a host (the create-project rule of spec 01 §5). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const ProjectName = requiredText(Messages.projectNameEmpty, {
  length: Limits.projectNameMax,
  message: Messages.projectNameTooLong,
});

export const ProjectUrl = z
  .string({ error: Messages.projectUrlInvalid })
  .trim()
  .refine(isHttpUrl, Messages.projectUrlInvalid);

export const AccessKeyName = requiredText(Messages.tokenNameEmpty, {
  length: Limits.accessKeyNameMax,
  message: Messages.tokenNameTooLong,
});
