import { endpointsOf, startEgressProxy, type EgressPolicy, type EgressProxy } from '@rehearse/egress';

/**
 * The server's door to the egress rules for what it does for a user: the policy (private targets
 * as the operator allows, metadata never, this server itself always: its API for runs and the demo
 * apps it serves), and one proxy, started on first use, that recorder browsers and git remotes go
 * through. Sandboxed jobs get their own proxy from the runner's sandbox, with the same policy.
 */
export class ServerEgress {
  private proxy: Promise<EgressProxy> | undefined;

  constructor(
    private readonly allowPrivate: boolean,
    /** Where this server listens (known once it does). */
    private readonly selfUrl: () => string,
  ) {}

  async policy(): Promise<EgressPolicy> {
    return { allowPrivate: this.allowPrivate, alwaysAllow: await endpointsOf(this.selfUrl()) };
  }

  async proxyUrl(): Promise<string> {
    if (!this.proxy) {
      this.proxy = this.policy().then((policy) => startEgressProxy({ policy }));
      this.proxy.catch(() => (this.proxy = undefined));
    }
    return (await this.proxy).url;
  }

  async close(): Promise<void> {
    const proxy = await this.proxy?.catch(() => undefined);
    this.proxy = undefined;
    await proxy?.close();
  }
}
