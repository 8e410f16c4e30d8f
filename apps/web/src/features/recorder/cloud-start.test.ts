import { describe, expect, it } from 'vitest';
import { checkCloudStart, type CloudStartCalls } from './cloud-start';

function calls(active: number, reach: () => Promise<void> = async () => undefined): CloudStartCalls & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    activeSessions: async () => {
      asked.push('sessions');
      return active;
    },
    checkReachable: async (url) => {
      asked.push(`reach ${url}`);
      await reach();
    },
  };
}

describe('the checks before the cloud recorder tab opens (spec 01 §4)', () => {
  it('lets the tab open when the user has a session left and the environment answers', async () => {
    const c = calls(1);
    expect(await checkCloudStart('https://shop.test/', c)).toBeNull();
    expect(c.asked).toEqual(['sessions', 'reach https://shop.test/']);
  });

  it('stops at two open sessions with the spec’s words, without probing the environment', async () => {
    const c = calls(2);
    expect(await checkCloudStart('https://shop.test/', c)).toEqual({
      title: 'You have reached the maximum number of sessions',
      text: 'Only 2 concurrent sessions per user are allowed. Please end ongoing sessions and try again.',
    });
    expect(c.asked).toEqual(['sessions']);
  });

  it('says the environment is not reachable when the server says so', async () => {
    const c = calls(0, () =>
      Promise.reject(
        new Error(
          'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
        ),
      ),
    );
    expect(await checkCloudStart('http://127.0.0.1:9/', c)).toEqual({
      title: 'Your environment is not reachable from the cloud',
      text: 'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
    });
  });

  it('shows any other failure as the internal cloud error', async () => {
    const c = calls(0, () => Promise.reject(new Error('Failed to fetch')));
    expect(await checkCloudStart('https://shop.test/', c)).toEqual({
      title: 'Session could not be loaded',
      text: 'An error occured while starting the session, please try again. If the issue persists, switch to local recording.',
    });
  });
});
