import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AccessCache } from './auth/access-cache.js';
import { authTransactions } from './auth/auth-repos.js';
import { InstanceAdminService } from './admin/instance-admin.service.js';
import { InstanceSettingsRepo } from './auth/instance-settings.repo.js';
import { instanceSettingsFromEnvironment, InstanceSettingsService } from './auth/instance-settings.js';
import { ProjectsRepo } from './auth/projects.repo.js';
import { ProjectsService } from './auth/projects.service.js';
import { SessionsRepo } from './auth/sessions.repo.js';
import { SignInThrottle } from './auth/sign-in-throttle.js';
import { UsersRepo } from './auth/users.repo.js';
import { openDatabase, type Database } from './db/database.js';
import { loadSettings, parseSettings } from './env.js';
import { RetentionRepo } from './runs/retention.repo.js';
import { ActivityRepo } from './storage/activity.repo.js';
import { ActivityService } from './storage/activity.service.js';
import { WorkerPresenceRepo } from './workers/worker-presence.repo.js';
import { WorkerTokens } from './workers/worker-tokens.js';
import { WorkerTokensRepo } from './workers/worker-tokens.repo.js';

const USAGE = `Usage: npm run admin -- <command> [arguments]

The web app's Administration screen (instance administrators) makes the same changes; both are
recorded in the activity log.

Commands:
  extend-license <projectId> <days>        extend a project's license (also lifts the trial invite limit)
  set-threads <projectId> <n>              set a project's maxExecutionThreads
  set-allowed-projects <email> <n>         set how many more projects a user may create
  allow-delete-projects <email> <yes|no>   let a user delete projects they administer
  disable-user <email> <yes|no>            disable a user (no sign-in, sessions and keys end) or enable them again
  set-instance-admin <email> <yes|no>      name a user instance administrator, or take the right away
  clear-sign-in-blocks <email>             lift every block that failed sign-ins put on an account
  set-private-repo <projectId> <on|off>    enable the private-repository integration (its admin then connects it)
  create-worker-token <name>               print a new worker token for \`rehearse worker --token\` (shown once)
  disk-use                                 every project's runs, scenarios and artifact bytes, the largest first

extend-licence is accepted as another spelling of extend-license.`;

const isUuid = (text: string | undefined): text is string =>
  !!text && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);

function positiveInteger(text: string | undefined, what: string, allowZero = false): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new Error(`${what} must be a whole number${allowZero ? '' : ' above 0'}, got "${text ?? ''}".`);
  }
  return value;
}

function yesOrNo(text: string | undefined): boolean {
  if (text !== 'yes' && text !== 'no') throw new Error('Answer yes or no.');
  return text === 'yes';
}

/** The service the Administration screen uses, built on an open database for this process. */
function instanceAdminFor(database: Database): InstanceAdminService {
  const db = database.db;
  // The server's own cache when it runs in this process (tests); an empty one in `npm run admin`.
  const cache = AccessCache.forDatabase(database);
  const users = new UsersRepo(db, cache);
  const projectsRepo = new ProjectsRepo(db, cache);
  const settings = parseSettings(process.env);
  const sessions = new SessionsRepo(db, cache);
  return new InstanceAdminService(
    users,
    projectsRepo,
    new ProjectsService(authTransactions(db, cache), projectsRepo, users, ''),
    // A running server sees the sessions gone at their next call.
    { endSessionsOf: async (userId) => (await sessions.deleteForUser(userId)).length },
    new InstanceSettingsService(new InstanceSettingsRepo(db), instanceSettingsFromEnvironment(settings)),
    new WorkerTokens(new WorkerTokensRepo(db), new WorkerPresenceRepo(db)),
    new ActivityService(new ActivityRepo(db), projectsRepo),
    new RetentionRepo(db),
    SignInThrottle.forDatabase(db, settings),
  );
}

/** Runs one admin command against an open database; returns the line to print. */
export async function runAdminCommand(args: string[], database: Database): Promise<string> {
  const [command, first, second] = args;
  if (!command || command === 'help' || command === '--help') return USAGE;
  const admin = instanceAdminFor(database);
  // The CLI runs on the server itself: its actions are audited without a user (`via: cli`).
  const actor = null;
  const projectId = () => {
    if (!isUuid(first)) throw new Error(`No project with id "${first ?? ''}".`);
    return first;
  };
  const userId = async () => {
    const id = first ? await admin.userIdByEmail(first) : undefined;
    if (!id) throw new Error(`No user with email "${first ?? ''}".`);
    return id;
  };
  switch (command) {
    case 'extend-license':
    case 'extend-licence': {
      const days = positiveInteger(second, 'days');
      const project = await admin.extendLicence(actor, projectId(), days).catch(noProject(first));
      return `License of "${project.name}" now runs until ${project.expiresAt}.`;
    }
    case 'set-threads': {
      const threads = positiveInteger(second, 'threads', true);
      const project = await admin.updateProject(actor, projectId(), { maxExecutionThreads: threads }).catch(noProject(first));
      return `"${project.name}" may now run ${threads} execution thread(s).`;
    }
    case 'set-allowed-projects': {
      const count = positiveInteger(second, 'count', true);
      const user = await admin.updateUser(actor, await userId(), { allowedProjectsCount: count });
      return `${user.email} may now create ${count} more project(s).`;
    }
    case 'allow-delete-projects': {
      const allowed = yesOrNo(second);
      const user = await admin.updateUser(actor, await userId(), { allowDeleteProjects: allowed });
      return `${user.email} ${allowed ? 'may' : 'may not'} delete projects.`;
    }
    case 'disable-user': {
      const disabled = yesOrNo(second);
      const user = await admin.updateUser(actor, await userId(), { disabled });
      return `${user.email} is ${disabled ? 'disabled: they cannot sign in, and their sessions and access keys have ended' : 'enabled'}.`;
    }
    case 'set-instance-admin': {
      const instanceAdmin = yesOrNo(second);
      const user = await admin.updateUser(actor, await userId(), { instanceAdmin });
      return `${user.email} is ${instanceAdmin ? 'now' : 'no longer'} an instance administrator.`;
    }
    case 'clear-sign-in-blocks': {
      const user = await admin.clearSignInBlocks(actor, await userId());
      return `${user.email} may sign in again from any browser; its failed sign-ins are forgotten.`;
    }
    case 'set-private-repo': {
      if (second !== 'on' && second !== 'off') throw new Error('Answer on or off.');
      const project = await admin.updateProject(actor, projectId(), { privateRepo: second === 'on' }).catch(noProject(first));
      return `Private repository integration of "${project.name}" is ${second === 'on' ? 'enabled; its admin can now connect it' : 'disabled'}.`;
    }
    case 'create-worker-token': {
      const name = args.slice(1).join(' ').trim();
      if (!name) throw new Error('Give the worker token a name, e.g. create-worker-token ci-runner-1.');
      const { token } = await admin.createWorkerToken(actor, name);
      return `Worker token "${name}" (shown once; the server keeps only its digest):\n${token}`;
    }
    case 'disk-use': {
      const rows = await new RetentionRepo(database.db).storedByProject();
      return rows
        .map(
          (row) =>
            `${row.name} (${row.projectId}): ${row.runs} run(s), ${row.testCases} scenario(s), ${row.artifactBytes} bytes of artifacts`,
        )
        .join('\n');
    }
    default:
      throw new Error(`Unknown command "${command}".\n\n${USAGE}`);
  }
}

/** The service's "no such project" becomes the CLI's sentence naming the id typed. */
function noProject(id: string | undefined) {
  return (error: unknown): never => {
    if (error instanceof Error && 'statusCode' in error && error.statusCode === 404) throw new Error(`No project with id "${id ?? ''}".`);
    throw error;
  };
}

async function main(): Promise<void> {
  const settings = loadSettings();
  const database = await openDatabase({
    url: settings.DATABASE_URL,
    pgliteDir: path.join(settings.dataDir, 'pglite'),
    ...(settings.DATABASE_URL ? { schemaName: settings.DATABASE_SCHEMA } : {}),
  });
  try {
    console.log(await runAdminCommand(process.argv.slice(2), database));
  } finally {
    await database.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exitCode = 1;
  });
}
