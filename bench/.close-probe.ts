import { createApiClient } from '@rehearse/api-client';
import { authCalls, SocketPaths, workspaceCalls } from '@rehearse/contract';
import { io } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import { startTestApp } from '../apps/server/src/testing/test-app.js';

const step = process.argv[2] ?? 'all';
const test = await startTestApp('pglite', { WORKER_PROCESSES: '1', LOCAL_WORKERS: '0', WARM_RUNNERS: 'true' });
await test.app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
const signup = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
  body: { email: 'click@bench.test', password: 'bench password', firstname: 'Click', lastname: 'Bench' },
});
if (step !== 'signup') {
  const api = createApiClient({ baseUrl: base, getToken: () => signup.token });
  await api.call(workspaceCalls.pushEnv, { body: { projectId: signup.project._id, name: 'shop', data: { baseUrl: `${base}/demo-shop/` } } });
}
if (step === 'all') {
  const connected = io(base, { path: SocketPaths[0], auth: { token: signup.token }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve) => connected.once('connect', () => resolve()));
  connected.disconnect();
}
const t = Date.now();
console.log('closing');
const timer = setTimeout(() => console.log('STILL CLOSING after 10 s'), 10_000);
await test.close();
clearTimeout(timer);
console.log('closed in', Date.now() - t);
const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
console.log('active handles', handles.map((h) => (h as object).constructor.name));
setTimeout(() => console.log('STILL ALIVE 5 s after close'), 5000).unref();
