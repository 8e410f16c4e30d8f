import { authCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type ReceivedMail } from '../testing/smtp.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

describe('invitation mail', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let received: ReceivedMail[];
  let test: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    received = smtp.received;
    test = await startTestApp('pglite', { SMTP_URL: smtp.url, MAIL_FROM: 'Rehearse <invites@acme.test>' });
  });
  afterAll(async () => {
    await test?.close();
    await smtp?.close();
  });

  it('mails each invitee the same link the inviter gets', async () => {
    const owner = await signUp(test, { email: 'mailer@acme.test', firstname: 'Maya' });
    const { invitations } = await owner.api.call(authCalls.createInvitation, {
      body: { project_id: owner.projectId, sent_to_email_list: ['one@acme.test', 'two@acme.test'] },
    });
    expect(invitations.every((invitation) => invitation.mailed)).toBe(true);
    expect(received.map((mail) => mail.to).sort()).toEqual([['one@acme.test'], ['two@acme.test']]);
    const mail = received.find((m) => m.to[0] === 'one@acme.test')!;
    // Quoted-printable may wrap long lines; undo soft breaks before looking for the link.
    const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toContain('Maya Tester invited you to Default on Rehearse');
    expect(body).toContain(invitations.find((i) => i.email === 'one@acme.test')!.link);
    expect(body).toMatch(/From: Rehearse <invites@acme.test>/);
  });

  it('still answers with the link when the mail server is gone', async () => {
    const broken = await startTestApp('pglite', { SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const owner = await signUp(broken, { email: 'nomail@acme.test' });
      const { invitations } = await owner.api.call(authCalls.createInvitation, {
        body: { project_id: owner.projectId, sent_to_email_list: ['three@acme.test'] },
      });
      expect(invitations[0]).toMatchObject({ email: 'three@acme.test', mailed: false });
      expect(invitations[0]!.link).toContain('/invitation?id=');
    } finally {
      await broken.close();
    }
  });
});
