import { describe, expect, it } from 'vitest';
import { recordArgumentsOf, withDefaultHandler } from './link-handler.js';

const SERVER = 'http://rehearse.acme.test:4000';
const LINK = `rehearse://recorder?project_id=p1&env_name=staging.json&git_branch=main&feature_file=Checkout.feature&scenario_name=Pay+now&server=${encodeURIComponent(`${SERVER}/`)}&token=rhk_launch`;

// `rehearse setup` and `rehearse open` as a desktop runs them: packages/cli/src/cli.test.ts.
describe('rehearse:// links: what a link may ask and where it may send the recorder', () => {
  it('reads a recording link as rehearse record arguments and the launch key', () => {
    expect(recordArgumentsOf(LINK, [SERVER])).toEqual({
      token: 'rhk_launch',
      args: [
        '--server',
        SERVER,
        '--env',
        'staging',
        '--project',
        'p1',
        '--branch',
        'main',
        '--feature',
        'Checkout',
        '--scenario',
        'Pay now',
      ],
    });
  });

  it('refuses links to servers this machine did not set up, operations a link may not start, and links without their key', () => {
    // Any web page can open a rehearse:// link; it must not point the recorder (and a key) at its own server.
    const elsewhere = LINK.replace(encodeURIComponent(`${SERVER}/`), encodeURIComponent('https://evil.example'));
    expect(() => recordArgumentsOf(elsewhere, [SERVER])).toThrow(
      "The link is for https://evil.example, which is not one of this handler's servers (http://rehearse.acme.test:4000); run rehearse setup --server https://evil.example to add it",
    );
    expect(() => recordArgumentsOf(LINK.replace('rehearse://recorder', 'rehearse://open_vscode'), [SERVER])).toThrow(
      'A link can start recorder and ai_learn; run "open_vscode" with the command the open-recorder page shows',
    );
    expect(() => recordArgumentsOf(LINK.replace('&token=rhk_launch', ''), [SERVER])).toThrow(
      "The link has no server, token or environment: open the recorder from the server's page again",
    );
    expect(() => recordArgumentsOf('https://rehearse.acme.test/recorder', [SERVER])).toThrow('The link is not a rehearse:// link');
  });

  it('sets the default handler in mimeapps.list and keeps every other line', () => {
    const theirs =
      '[Default Applications]\ntext/html=firefox.desktop\nx-scheme-handler/rehearse=old.desktop\n\n[Added Associations]\nimage/png=gimp.desktop\n';
    const ours = withDefaultHandler(theirs, 'rehearse-recorder.desktop');
    expect(ours).toBe(
      '[Default Applications]\nx-scheme-handler/rehearse=rehearse-recorder.desktop\ntext/html=firefox.desktop\n\n[Added Associations]\nimage/png=gimp.desktop\n',
    );
    expect(withDefaultHandler(ours, null)).toBe(
      '[Default Applications]\ntext/html=firefox.desktop\n\n[Added Associations]\nimage/png=gimp.desktop\n',
    );
    expect(withDefaultHandler('', 'rehearse-recorder.desktop')).toBe(
      '[Default Applications]\nx-scheme-handler/rehearse=rehearse-recorder.desktop\n',
    );
  });
});
