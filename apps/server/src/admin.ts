import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authTransactions } from './auth/auth-repos.js';
import { ProjectsRepo } from './auth/projects.repo.js';
import { ProjectsService } from './auth/projects.service.js';
import { UsersRepo } from './auth/users.repo.js';
import { openDatabase, type Database } from './db/database.js';
import { loadSettings } from './env.js';
import { RetentionRepo } from './runs/retention.repo.js';
import { WorkerTokens } from './workers/worker-tokens.js';
import { WorkerTokensRepo } from './workers/worker-tokens.repo.js';

const USAGE = `Usage: npm run admin -- <command> [arguments]

Commands:
  extend-licence <projectId> <days>        extend a project's licence (also lifts the trial invite limit)
  set-threads <projectId> <n>              set a project's maxExecutionThreads
  set-allowed-projects <email> <n>         set how many more projects a user may create
  allow-delete-projects <email> <yes|no>   let a user delete projects they administer
  set-private-repo <projectId> <on|off>    enable the private-repository integration (its admin then connects it)
  create-worker-token <name>               print a new worker token for \`rehearse worker --token\` (shown once)
  disk-use                                 every project's runs, scenarios and artifact bytes, the largest first`;

const isUuid = (text: string | undefined): text is string =>
  !!text && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);

function positiveInteger(text: string | undefined, what: string, allowZero = false): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new Error(`${what} must be a whole number${allowZero ? '' : ' above 0'}, got "${text ?? ''}".`);
  }
  return value;
}

/** Runs one admin command against an open database; returns the line to print. */
export async function runAdminCommand(args: string[], database: Database): Promise<string> {
  const [command, first, second] = args;
  if (!command || command === 'help' || command === '--help') return USAGE;
  const projectsRepo = new ProjectsRepo(database.db);
  const users = new UsersRepo(database.db);
  const projects = new ProjectsService(authTransactions(database.db), projectsRepo, users, '');
  switch (command) {
    case 'extend-licence': {
      const days = positiveInteger(second, 'days');
      const project = isUuid(first) ? await projects.extendLicence(first, days) : undefined;
      if (!project) throw new Error(`No project with id "${first ?? ''}".`);
      return `Licence of "${project.name}" now runs until ${project.licenceExpiresAt.toISOString()}.`;
    }
    case 'set-threads': {
      const threads = positiveInteger(second, 'threads', true);
      const project = isUuid(first) ? await projects.setMaxExecutionThreads(first, threads) : undefined;
      if (!project) throw new Error(`No project with id "${first ?? ''}".`);
      return `"${project.name}" may now run ${threads} execution thread(s).`;
    }
    case 'set-allowed-projects': {
      const count = positiveInteger(second, 'count', true);
      const user = first ? await users.findByEmail(first) : undefined;
      if (!user) throw new Error(`No user with email "${first ?? ''}".`);
      await users.update(user.id, { allowedProjectsCount: count });
      return `${user.email} may now create ${count} more project(s).`;
    }
    case 'allow-delete-projects': {
      if (second !== 'yes' && second !== 'no') throw new Error('Answer yes or no.');
      const user = first ? await users.findByEmail(first) : undefined;
      if (!user) throw new Error(`No user with email "${first ?? ''}".`);
      await users.update(user.id, { allowDeleteProjects: second === 'yes' });
      return `${user.email} ${second === 'yes' ? 'may' : 'may not'} delete projects.`;
    }
    case 'set-private-repo': {
      if (second !== 'on' && second !== 'off') throw new Error('Answer on or off.');
      const project = isUuid(first)
        ? await projectsRepo.update(first, second === 'on' ? { privateRepo: true } : { privateRepo: false, configuredPrivateRepo: false })
        : undefined;
      if (!project) throw new Error(`No project with id "${first ?? ''}".`);
      return `Private repository integration of "${project.name}" is ${second === 'on' ? 'enabled; its admin can now connect it' : 'disabled'}.`;
    }
    case 'create-worker-token': {
      const name = args.slice(1).join(' ').trim();
      if (!name) throw new Error('Give the worker token a name, e.g. create-worker-token ci-runner-1.');
      const { token } = await new WorkerTokens(new WorkerTokensRepo(database.db)).create(name);
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
