import type { ReleaseAsset } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { detectPlatform, launchChoice, pickDownload } from './platform';

const asset = (name: string): ReleaseAsset => ({ name, browser_download_url: `https://releases.test/${name}` }) as ReleaseAsset;
const FALLBACK = '/downloads/rehearse-runner-latest.tgz';

const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe("'Download app' per system and the choice between download and deep link (spec 01 §2, §4; 02 §2)", () => {
  it('tells the visitor’s system from the browser', () => {
    expect(detectPlatform(WINDOWS)).toEqual({ os: 'windows', arch: 'x64' });
    expect(detectPlatform(MAC)).toEqual({ os: 'mac', arch: null });
    expect(detectPlatform(MAC, { platform: 'macOS', architecture: 'arm' })).toEqual({ os: 'mac', arch: 'arm64' });
    expect(detectPlatform(LINUX)).toEqual({ os: 'linux', arch: 'x64' });
    expect(detectPlatform(ANDROID).os).toBe('other');
    expect(detectPlatform(IPAD).os).toBe('other');
  });

  it('picks a Windows .exe or a macOS x64/arm64 zip from the latest release, else the releases page', () => {
    const release = [
      asset('rehearse-recorder-1.2.0-setup.exe'),
      asset('rehearse-recorder-1.2.0-mac-x64.zip'),
      asset('rehearse-recorder-1.2.0-mac-arm64.zip'),
      asset('rehearse-runner-1.2.0.tgz'),
    ];
    expect(pickDownload(release, { os: 'windows', arch: 'x64' }, FALLBACK)).toBe('https://releases.test/rehearse-recorder-1.2.0-setup.exe');
    expect(pickDownload(release, { os: 'mac', arch: 'x64' }, FALLBACK)).toBe('https://releases.test/rehearse-recorder-1.2.0-mac-x64.zip');
    expect(pickDownload(release, { os: 'mac', arch: 'arm64' }, FALLBACK)).toBe(
      'https://releases.test/rehearse-recorder-1.2.0-mac-arm64.zip',
    );
    // Safari does not say the processor: the x64 zip, which Apple silicon also runs.
    expect(pickDownload(release, { os: 'mac', arch: null }, FALLBACK)).toBe('https://releases.test/rehearse-recorder-1.2.0-mac-x64.zip');
    expect(pickDownload(release, { os: 'linux', arch: 'x64' }, FALLBACK)).toBe('https://releases.test/rehearse-runner-1.2.0.tgz');
    // This server's own release: the runner package for every system; none at all: the fallback.
    const server = [asset('rehearse-runner-1.2.0.tgz')];
    for (const os of ['windows', 'mac', 'linux', 'other'] as const)
      expect(pickDownload(server, { os, arch: null }, FALLBACK)).toBe('https://releases.test/rehearse-runner-1.2.0.tgz');
    expect(pickDownload([], { os: 'windows', arch: 'x64' }, FALLBACK)).toBe(FALLBACK);
  });

  it('follows the deep link on a desktop, where the handler can be registered, and leads with the download elsewhere', () => {
    expect(launchChoice({ os: 'windows', arch: 'x64' })).toBe('deep-link');
    expect(launchChoice({ os: 'mac', arch: 'arm64' })).toBe('deep-link');
    expect(launchChoice({ os: 'linux', arch: 'x64' })).toBe('deep-link');
    expect(launchChoice({ os: 'other', arch: null })).toBe('download');
  });
});
