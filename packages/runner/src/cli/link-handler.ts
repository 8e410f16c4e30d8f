import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../support/settings.js';
import { parse } from './args.js';
import { EXIT, type CliIo, type CliParts } from './io.js';

/** The scheme the server's open-recorder page links to (`rehearse://recorder?…`). */
const SCHEME = 'rehearse:';
const MIME_TYPE = 'x-scheme-handler/rehearse';
/** The desktop entry `rehearse setup` writes; its name is how mimeapps.list refers to it. */
export const DESKTOP_FILE = 'rehearse-recorder.desktop';
/** Operations a link may ask for that `rehearse open` carries out; the others run from the page's command. */
const RECORDING_OPERATIONS = new Set(['recorder', 'ai_learn']);

export const SETUP_USAGE = `Usage: rehearse setup --server URL [--server URL2 …] | rehearse setup --remove

Registers this rehearse as the handler of rehearse:// links (Linux desktops: a desktop entry in
~/.local/share/applications and the default in ~/.config/mimeapps.list), so "Continue in the app"
on the server's open-recorder page starts the recorder. Links are only followed to the servers
named here. Run it from an installed rehearse (npm install -g <server>/downloads/rehearse-runner-latest.tgz):
one run by npx lives in npx's cache, which npm may clean.
`;

export const OPEN_USAGE = `Usage: rehearse open [--allow-server URL …] 'rehearse://recorder?…'

Does what a rehearse:// link from the open-recorder page asks (recorder and ai_learn record with
the link's server, environment, branch, feature and scenario, and the key made for that launch).
`;

/** Where desktop entries and the default-handler list live (XDG base directories). */
function xdgDirs(env: NodeJS.ProcessEnv): { applications: string; mimeapps: string } {
  const home = env.HOME || homedir();
  const data = env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  const config = env.XDG_CONFIG_HOME || path.join(home, '.config');
  return { applications: path.join(data, 'applications'), mimeapps: path.join(config, 'mimeapps.list') };
}

/**
 * An argument of a desktop entry's Exec line: as it is when it holds nothing the spec reserves,
 * else quoted with those characters escaped. Plain words matter: xdg-open without a desktop
 * environment splits Exec on spaces and does not unquote.
 */
function execArgument(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) && !word.includes('%') ? word : `"${word.replace(/([\\"`$])/g, '\\$1')}"`;
}

/** A server as links name it: its origin, so `http://host:4000/` and `http://host:4000` are one. */
function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    throw new UsageError(`"${url}" is not a server URL`);
  }
}

/**
 * mimeapps.list with `x-scheme-handler/rehearse` set (or removed) in [Default Applications],
 * every other line kept as it was.
 */
export function withDefaultHandler(text: string, desktopFile: string | null): string {
  const lines = text.split('\n').filter((line, index, all) => !(index === all.length - 1 && line === ''));
  const kept = lines.filter((line) => !line.startsWith(`${MIME_TYPE}=`));
  if (desktopFile === null) return kept.length > 0 ? `${kept.join('\n')}\n` : '';
  const section = kept.findIndex((line) => line.trim() === '[Default Applications]');
  const entry = `${MIME_TYPE}=${desktopFile}`;
  if (section === -1) return `${[...kept, ...(kept.length > 0 ? [''] : []), '[Default Applications]', entry].join('\n')}\n`;
  kept.splice(section + 1, 0, entry);
  return `${kept.join('\n')}\n`;
}

/** `rehearse setup`: registers (or with --remove, unregisters) the rehearse:// link handler. */
export async function runSetup(args: string[], io: CliIo, { bin }: Pick<CliParts, 'bin'>): Promise<number> {
  const { values } = parse(args, {
    server: { type: 'string', multiple: true },
    remove: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(SETUP_USAGE);
    return EXIT.ok;
  }
  if (process.platform !== 'linux') {
    io.stderr.write(
      `rehearse setup: registering the link handler is done on Linux only so far. On ${process.platform}, run the command the open-recorder page shows.\n`,
    );
    return EXIT.usage;
  }
  const dirs = xdgDirs(io.env);
  const desktopPath = path.join(dirs.applications, DESKTOP_FILE);
  const mimeapps = existsSync(dirs.mimeapps) ? readFileSync(dirs.mimeapps, 'utf8') : '';
  if (values.remove) {
    rmSync(desktopPath, { force: true });
    if (mimeapps) writeFileSync(dirs.mimeapps, withDefaultHandler(mimeapps, null));
    io.stdout.write('Removed the rehearse:// link handler.\n');
    return EXIT.ok;
  }
  const servers = (values.server ?? []).map(origin);
  if (servers.length === 0) throw new UsageError('rehearse setup needs --server: links are followed only to the servers you name');
  const exec = [process.execPath, bin, 'open', ...servers.flatMap((server) => ['--allow-server', server])].map(execArgument).join(' ');
  mkdirSync(dirs.applications, { recursive: true });
  writeFileSync(
    desktopPath,
    [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Rehearse recorder',
      'Comment=Opens rehearse:// links from a Rehearse server',
      `Exec=${exec} %u`,
      'Terminal=false',
      'NoDisplay=true',
      `MimeType=${MIME_TYPE};`,
      '',
    ].join('\n'),
  );
  mkdirSync(path.dirname(dirs.mimeapps), { recursive: true });
  writeFileSync(dirs.mimeapps, withDefaultHandler(mimeapps, DESKTOP_FILE));
  // Desktops that cache handlers read the database this refreshes; without the tool they read mimeapps.list.
  await new Promise<void>((resolve) => execFile('update-desktop-database', [dirs.applications], () => resolve()));
  io.stdout.write(`Registered ${desktopPath} for rehearse:// links to ${servers.join(', ')}.\n`);
  if (bin.includes(`${path.sep}_npx${path.sep}`)) {
    io.stdout.write(
      "Note: this rehearse runs from npx's cache, which npm may clean; for a lasting handler install it (npm install -g …) and run setup again.\n",
    );
  }
  return EXIT.ok;
}

/** What a rehearse:// link asks for, as `rehearse record` arguments and the token to run them with. */
export function recordArgumentsOf(link: string, allowedServers: string[]): { args: string[]; token: string } {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new UsageError('The link is not a rehearse:// link');
  }
  if (url.protocol !== SCHEME) throw new UsageError('The link is not a rehearse:// link');
  const operation = url.hostname;
  if (!RECORDING_OPERATIONS.has(operation)) {
    throw new UsageError(`A link can start recorder and ai_learn; run "${operation}" with the command the open-recorder page shows`);
  }
  const get = (name: string) => url.searchParams.get(name) || undefined;
  const server = get('server');
  const token = get('token');
  const env = get('env_name') ?? get('env');
  if (!server || !token || !env)
    throw new UsageError("The link has no server, token or environment: open the recorder from the server's page again");
  // A page anywhere on the web can open a rehearse:// link: follow only those to servers set up here.
  if (allowedServers.length > 0 && !allowedServers.includes(origin(server))) {
    throw new UsageError(
      `The link is for ${origin(server)}, which is not one of this handler's servers (${allowedServers.join(', ')}); run rehearse setup --server ${origin(server)} to add it`,
    );
  }
  const args = ['--server', origin(server), '--env', env.replace(/\.json$/, '')];
  const project = get('project_id');
  const branch = get('git_branch');
  const feature = get('feature_file')?.replace(/\.feature$/, '');
  const scenario = get('scenario_name');
  if (project) args.push('--project', project);
  if (branch) args.push('--branch', branch);
  if (feature) args.push('--feature', feature);
  if (scenario) args.push('--scenario', scenario);
  return { args, token };
}

/** `rehearse open <link>`: the registered handler; records as the link asks, with the link's launch key. */
export async function runOpen(args: string[], io: CliIo, { record }: Pick<CliParts, 'record'>): Promise<number> {
  const { values, positionals } = parse(args, {
    'allow-server': { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help || positionals.length !== 1) {
    (values.help ? io.stdout : io.stderr).write(OPEN_USAGE);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const { args: recordArgs, token } = recordArgumentsOf(positionals[0]!, (values['allow-server'] ?? []).map(origin));
  io.stdout.write(`Opening the recorder: rehearse record ${recordArgs.join(' ')}\n`);
  return record(recordArgs, { ...io, env: { ...io.env, REHEARSE_TOKEN: token } });
}
