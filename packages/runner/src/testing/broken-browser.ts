/** The variables that choose the browser a launch starts (browser.ts), as a test breaks them. */
const BROWSER_VARIABLES = ['REHEARSE_HEADLESS_SHELL', 'CHROMIUM_PATH'] as const;

/**
 * Points every browser launch of this process, and of the jobs it starts (they take these
 * variables from its environment), at `program`, which is no browser: Playwright's launch fails.
 * Answers the function that puts the machine's browser back.
 */
export function breakBrowserLaunch(program = '/bin/false'): () => void {
  const saved = BROWSER_VARIABLES.map((name) => [name, process.env[name]] as const);
  process.env.REHEARSE_HEADLESS_SHELL = '0';
  process.env.CHROMIUM_PATH = program;
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
