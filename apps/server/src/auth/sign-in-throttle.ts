import { DAY_MS, Messages } from '@rehearse/contract';
import { tooManyRequests } from '../http/errors.js';
import type { Db } from '../db/database.js';
import type { Transactions } from '../db/transactions.js';
import type { Settings } from '../env.js';
import {
  SignInThrottlesRepo,
  signInThrottleTransactions,
  type BlockedAccount,
  type ThrottleKey,
  type ThrottleRow,
  type ThrottleScope,
} from './sign-in-throttles.repo.js';

export interface SignInThrottleRules {
  /** Failures of one email from one client before that pair waits (SIGNIN_LOCKOUT_AFTER). */
  pairAfter: number;
  /** Failures from one client, whatever the emails, before that client waits (SIGNIN_CLIENT_LOCKOUT_AFTER). */
  clientAfter: number;
  /** Failures against one email from all clients before clients it does not know wait (SIGNIN_ACCOUNT_GUARD_AFTER). */
  accountAfter: number;
  /** The first wait; each further failure doubles it (SIGNIN_LOCKOUT_SECONDS). */
  baseSeconds: number;
  /** The longest wait (SIGNIN_LOCKOUT_MAX_SECONDS). */
  maxSeconds: number;
}

/** Failures are counted in windows of an hour: one guess an hour never adds up to a block. */
const WINDOW_MS = 3_600_000;
/** A client that signed in to an account within this time passes that account's guard. */
const KNOWN_CLIENT_MS = 30 * DAY_MS;

/** A claimed attempt: what `succeeded` takes back when the password was right. */
export interface SignInTicket {
  email: string;
  client: string;
  /** The account's failures just crossed its guard: tell its owner (once a window). */
  notifyOwner: boolean;
}

const keysOf = (email: string, client: string): ThrottleKey[] => [
  { scope: 'pair', key: `${email} ${client}`, email },
  { scope: 'client', key: client, email: null },
  { scope: 'account', key: email, email },
];

/**
 * Sign-in throttling without lock-outs by strangers (DESIGN §9). Failures are counted three ways:
 * per (email, client), per client and per email. The first two block only the client that failed;
 * the third, reached only by many clients together, blocks clients the account does not know (none
 * that signed in to it within 30 days), so the owner's own client still signs in during an attack.
 * Each block doubles per further failure up to the maximum; counts start again every hour, so no
 * lone slow guesser holds a block for good. Unknown emails are counted exactly as real accounts,
 * so neither answers nor timing tell which exist. Attempts are counted before the password is
 * checked (a burst of parallel guesses is counted one after another); a success takes its count back.
 */
export class SignInThrottle {
  constructor(
    private readonly transactions: Transactions<SignInThrottlesRepo>,
    private readonly repo: SignInThrottlesRepo,
    private readonly rules: SignInThrottleRules,
  ) {}

  /** The throttle on `db` with the rules the settings give (the server and `npm run admin` alike). */
  static forDatabase(
    db: Db,
    settings: Pick<
      Settings,
      | 'SIGNIN_LOCKOUT_AFTER'
      | 'SIGNIN_CLIENT_LOCKOUT_AFTER'
      | 'SIGNIN_ACCOUNT_GUARD_AFTER'
      | 'SIGNIN_LOCKOUT_SECONDS'
      | 'SIGNIN_LOCKOUT_MAX_SECONDS'
    >,
  ): SignInThrottle {
    return new SignInThrottle(signInThrottleTransactions(db), new SignInThrottlesRepo(db), {
      pairAfter: settings.SIGNIN_LOCKOUT_AFTER,
      clientAfter: settings.SIGNIN_CLIENT_LOCKOUT_AFTER,
      accountAfter: settings.SIGNIN_ACCOUNT_GUARD_AFTER,
      baseSeconds: settings.SIGNIN_LOCKOUT_SECONDS,
      maxSeconds: settings.SIGNIN_LOCKOUT_MAX_SECONDS,
    });
  }

  /** Counts one attempt of `email` from `client`, or refuses it with a 429 naming the wait. */
  async claim(email: string, client: string, now: Date): Promise<SignInTicket> {
    const normalized = email.toLowerCase();
    return this.transactions.run(async (repo) => {
      const { pair, fromClient, account } = await this.locked(repo, normalized, client, now);
      const known = pair.signedInAt !== null && now.getTime() - pair.signedInAt.getTime() < KNOWN_CLIENT_MS;
      const waits: { scope: ThrottleScope; seconds: number }[] = [];
      for (const row of [pair, fromClient, ...(known ? [] : [account])]) {
        if (row.blockedUntil && row.blockedUntil.getTime() > now.getTime()) {
          waits.push({ scope: row.scope, seconds: (row.blockedUntil.getTime() - now.getTime()) / 1000 });
        }
      }
      if (waits.length > 0) {
        // Saved anyway: a window that began again stays begun.
        for (const row of [pair, fromClient, account]) await repo.save(row);
        const longest = waits.reduce((a, b) => (b.seconds > a.seconds ? b : a));
        throw tooManyRequests(longest.scope === 'client' ? Messages.clientLocked : Messages.accountLocked, longest.seconds);
      }
      for (const row of [pair, fromClient, account]) {
        row.failures += 1;
        const after = this.allowance(row.scope);
        if (row.failures >= after) row.blockedUntil = new Date(now.getTime() + this.waitSeconds(row.failures - after) * 1000);
      }
      const notifyOwner =
        account.failures === this.rules.accountAfter && account.notifiedAt?.getTime() !== account.windowStartedAt.getTime();
      if (notifyOwner) account.notifiedAt = account.windowStartedAt;
      for (const row of [pair, fromClient, account]) await repo.save(row);
      return { email: normalized, client, notifyOwner };
    });
  }

  /** The password was right: this client is now known to the account, and the attempt's count is taken back. */
  async succeeded(ticket: SignInTicket, now: Date): Promise<void> {
    await this.transactions.run(async (repo) => {
      const { pair, fromClient, account } = await this.locked(repo, ticket.email, ticket.client, now);
      Object.assign(pair, { failures: 0, blockedUntil: null, signedInAt: now });
      for (const row of [fromClient, account]) {
        row.failures = Math.max(0, row.failures - 1);
        if (row.failures < this.allowance(row.scope)) row.blockedUntil = null;
      }
      for (const row of [pair, fromClient, account]) await repo.save(row);
    });
  }

  /** The three rows of an attempt, locked for the transaction, each in its current window. */
  private async locked(
    repo: SignInThrottlesRepo,
    email: string,
    client: string,
    now: Date,
  ): Promise<{ pair: ThrottleRow; fromClient: ThrottleRow; account: ThrottleRow }> {
    const [pair, fromClient, account] = await repo.lockRows(keysOf(email, client), now);
    if (!pair || !fromClient || !account) throw new Error('sign_in_throttles: an attempt locks three rows');
    return { pair: this.inWindow(pair, now), fromClient: this.inWindow(fromClient, now), account: this.inWindow(account, now) };
  }

  /** Real accounts blocked now, for the admin area. */
  blockedAccounts(now: Date): Promise<BlockedAccount[]> {
    return this.repo.blockedAccounts(now);
  }

  /** Lifts every block on an account and forgets its failures (an administrator's action). */
  clear(email: string): Promise<number> {
    return this.repo.clearEmail(email.toLowerCase());
  }

  /** Housekeeping: rows whose window passed a day ago, with no block standing and no recent success. */
  forgetStale(now = new Date()): Promise<number> {
    return this.repo.deleteStale(now, new Date(now.getTime() - DAY_MS), new Date(now.getTime() - KNOWN_CLIENT_MS));
  }

  private allowance(scope: ThrottleScope): number {
    return { pair: this.rules.pairAfter, client: this.rules.clientAfter, account: this.rules.accountAfter }[scope];
  }

  private waitSeconds(failuresPastAllowance: number): number {
    return Math.min(this.rules.maxSeconds, this.rules.baseSeconds * 2 ** Math.min(failuresPastAllowance, 30));
  }

  /** A row whose window ended starts a new one with no failures; a block standing stays. */
  private inWindow(row: ThrottleRow, now: Date): ThrottleRow {
    if (now.getTime() - row.windowStartedAt.getTime() < WINDOW_MS) return row;
    return { ...row, failures: 0, windowStartedAt: now };
  }
}
