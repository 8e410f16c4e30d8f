import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Links that are their own credential, for the few readers that cannot send the session (Playwright's
 * trace viewer fetches a trace from its service worker with a bare URL). A link names what it opens
 * and when it stops working, signed with the server's secret key under a purpose of its own, so a
 * link made for one use is nothing to another.
 */
export class SignedLinks<Payload extends object> {
  private readonly key: Buffer;

  constructor(secretKey: Buffer, purpose: string) {
    // One key per purpose, derived: the server's key itself never signs anything a user holds.
    this.key = createHmac('sha256', secretKey).update(`rehearse signed link: ${purpose}`).digest();
  }

  sign(payload: Payload, expiresAt: Date): string {
    const body = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(expiresAt.getTime() / 1000) })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a link this signer made and that has not expired; undefined for anything else. */
  verify(link: string, now = new Date()): Payload | undefined {
    const [body, mac, extra] = link.split('.');
    if (!body || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { exp?: unknown }).exp !== 'number') return undefined;
    const { exp, ...payload } = parsed as { exp: number };
    return exp * 1000 > now.getTime() ? (payload as Payload) : undefined;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
