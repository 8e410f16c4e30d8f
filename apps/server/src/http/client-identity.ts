import { egressClientOf } from '@rehearse/egress';
import type { FastifyRequest } from 'fastify';

/**
 * Who a request comes from, for rate limits, sign-in throttles and the password pool's fair
 * share. Job traffic reaches this server through this process's egress proxy, over loopback, which
 * `TRUST_PROXY` may trust as a hop: its `X-Forwarded-For` is the job's own invention, so such a
 * request is named by the proxy it came through, never by the address it claims (DESIGN §9). Any
 * other request is its address as Fastify resolves it (through the proxies `TRUST_PROXY` names).
 */
export function clientOf(request: FastifyRequest): string {
  return egressClientOf(request.socket.remoteAddress, request.socket.remotePort) ?? request.ip;
}
