import { escapeHtml, type Mailer } from '../mail/mailer.js';

interface WarningLogger {
  warn(details: object, message: string): void;
}

/**
 * The mail an account's owner gets when wrong passwords for it, from many clients, crossed the
 * account-wide guard (once an hour at most: `SignInThrottle`). Without SMTP nobody is told; the
 * admin area still lists the account as blocked.
 */
export function signInWarning(
  mailer: Mailer | null,
  publicUrl: string,
  log: WarningLogger,
): (user: { email: string; firstName: string }) => Promise<void> {
  return async (user) => {
    if (!mailer) return;
    const text =
      `Hello ${user.firstName},\n\nMany sign-ins with a wrong password were tried for your Rehearse account (${user.email}) in the last hour. ` +
      `Browsers you signed in with before can still sign in; others must wait for now.\n\n` +
      `If this was not you, choose a longer password and tell your Rehearse administrator.\n${publicUrl}\n`;
    try {
      await mailer.send({
        to: user.email,
        subject: 'Repeated failed sign-ins on your Rehearse account',
        text,
        html: text
          .split('\n\n')
          .map((paragraph) => `<p>${escapeHtml(paragraph).replaceAll('\n', '<br>')}</p>`)
          .join(''),
      });
    } catch (error) {
      log.warn({ err: error }, 'sign-in warning mail failed');
    }
  };
}
