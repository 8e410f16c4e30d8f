export { classifyAddress, METADATA_HOST_NAMES, type AddressClass } from './addresses.js';
export {
  ALLOW_PRIVATE_TARGETS_ENV,
  allowPrivateTargets,
  EgressRefused,
  endpointsOf,
  guardedLookup,
  resolveAllowed,
  type EgressPolicy,
  type Lookup,
  type RefusalReason,
} from './policy.js';
export { egressClientOf, REFUSAL_HEADER, startEgressProxy, type EgressProxy, type EgressRefusal } from './proxy.js';
export { startRelay } from './relay.js';
export { EGRESS_PROXY_ENV, EGRESS_SOCKET_ENV, useEgressProxyFromEnv } from './client.js';
