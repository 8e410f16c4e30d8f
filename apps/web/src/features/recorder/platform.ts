import type { ReleaseAsset } from '@rehearse/contract';

/** The visitor's desktop as the open-recorder page needs it: which download and which setup words. */
export interface VisitorPlatform {
  os: 'windows' | 'mac' | 'linux' | 'other';
  /** The processor, when the browser tells it (macOS builds differ between x64 and arm64). */
  arch: 'x64' | 'arm64' | null;
}

/**
 * Reads the platform from what the browser says: the user-agent client hints' platform and
 * architecture when given (Chromium), else the user-agent string. Phones and tablets (Android,
 * iPhone, iPad) and ChromeOS are `other`: no rehearse:// handler can be registered there.
 */
export function detectPlatform(userAgent: string, hints: { platform?: string; architecture?: string } = {}): VisitorPlatform {
  const platform = (hints.platform ?? '').toLowerCase();
  const ua = userAgent.toLowerCase();
  let os: VisitorPlatform['os'];
  if (/android|iphone|ipad|ipod|cros/.test(ua) || platform === 'android' || platform === 'chrome os' || platform === 'chromeos')
    os = 'other';
  else if (platform === 'windows' || /windows nt/.test(ua)) os = 'windows';
  else if (platform === 'macos' || /mac os x|macintosh/.test(ua)) os = 'mac';
  else if (platform === 'linux' || /linux|x11/.test(ua)) os = 'linux';
  else os = 'other';
  const architecture = (hints.architecture ?? '').toLowerCase();
  const arch: VisitorPlatform['arch'] =
    architecture === 'arm' || /arm64|aarch64/.test(ua)
      ? 'arm64'
      : architecture === 'x86' || /x86_64|x64|win64|wow64|amd64/.test(ua)
        ? 'x64'
        : null;
  return { os, arch };
}

/**
 * Spec 01 §2 / 02 §2: "'Download app' picks a Windows .exe or a macOS x64/arm64 zip from the
 * latest release, else the releases page". A release with such builds gets them picked; this
 * server's release holds the runner package (one Node tarball for every system), which is what
 * `fallback` names, as the releases page would.
 */
export function pickDownload(assets: readonly ReleaseAsset[], platform: VisitorPlatform, fallback: string): string {
  const named = (test: (name: string) => boolean) => assets.find((asset) => test(asset.name.toLowerCase()))?.browser_download_url;
  if (platform.os === 'windows') {
    const exe = named((name) => name.endsWith('.exe'));
    if (exe) return exe;
  }
  if (platform.os === 'mac') {
    const isMacZip = (name: string) => name.endsWith('.zip') && /mac|darwin|osx/.test(name);
    const arm = (name: string) => /arm64|aarch64|apple-silicon/.test(name);
    const forArch =
      platform.arch === 'arm64' ? named((name) => isMacZip(name) && arm(name)) : named((name) => isMacZip(name) && !arm(name));
    const zip = forArch ?? named(isMacZip);
    if (zip) return zip;
  }
  return named((name) => name.endsWith('.tgz')) ?? fallback;
}

/**
 * Spec 01 §4: "The platform decides between download and deep link". On a desktop (Windows, macOS,
 * Linux) `rehearse setup` can register the rehearse:// handler, so the page follows the link
 * (Continue in the app, clicked on load); elsewhere no handler can exist and clicking the link
 * would only show an error, so the page leads with Download app and the command instead.
 */
export function launchChoice(platform: VisitorPlatform): 'deep-link' | 'download' {
  return platform.os === 'other' ? 'download' : 'deep-link';
}

/** The visitor's platform in this browser (client hints where Chromium gives them at once). */
export function currentPlatform(): VisitorPlatform {
  const data = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  return detectPlatform(navigator.userAgent, data?.platform ? { platform: data.platform } : {});
}
