import type { ExecutionStatus } from '@rehearse/contract';
import type { TestApp } from './test-app.js';

/** An execution's status once it has stopped running, polled every 500 ms; throws when `limitMs` passes first. */
export async function executionFinished(test: TestApp, executionId: string, limitMs = 180_000): Promise<ExecutionStatus> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const status = await test.services.engine.status(executionId);
    if (!status.running) return status;
    if (Date.now() > deadline) throw new Error(`the execution did not finish in ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
