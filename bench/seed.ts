import { performance } from 'node:perf_hooks';
import type { Database } from '../apps/server/src/db/database.js';

export const SEED = {
  /** Projects the bench user belongs to, its sign-up "Default" project included. */
  projects: 1000,
  /** Members per bench project, the bench user included. */
  membersPerProject: 50,
  /** Invitations per bench project; the first `pendingInvitations` are still pending. */
  invitationsPerProject: 5,
  pendingInvitations: 3,
} as const;

/** Other members of one project; each of them belongs to exactly one bench project. */
const OTHERS_PER_PROJECT = SEED.membersPerProject - 1;
export const MEMBER_USERS = SEED.projects * OTHERS_PER_PROJECT;
const MEMBER_DOMAIN = 'bench-member.test';

// scrypt of a random password that was thrown away: these accounts exist to be listed, never to sign in.
const UNUSABLE_PASSWORD_HASH = 'scrypt$32768$8$1$5MEcxdalVFBeMWlP6bnAoQ==$bSFirph3A6FAJtiy+KK435PrsYKKonKHEae8yxT/u7s=';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Indexes this bench proposes for the server's schema (see the report), applied to the bench database
 * only with `--with-indexes`, so their effect can be measured through the unchanged server.
 * The admin index answers the `projectAdmin` subquery of projects.listForUser with one index entry per
 * project instead of reading all 50 memberships, filtering on role and sorting them.
 */
export const PROPOSED_INDEXES = [
  `create index project_members_admin_idx on project_members (project_id, created_at, user_id) where role = 'ADMIN'`,
];

export interface SeedReport {
  ms: number;
  analyzed: boolean;
  proposedIndexes: string[];
  rows: { users: number; projects: number; projectMembers: number; invitations: number };
}

/**
 * Fills the database around a bench user who signed up through the API (and so already owns a
 * Default project). 49,000 distinct member users rather than one pool of 49 shared ones: in a real
 * installation most people belong to a handful of projects, and a 49-row users table would fit in
 * one page and hide the cost of joining members to users. Each member also owns the Default
 * project sign-up gives everyone, so the bench user's rows are a minority of projects and
 * project_members, as they would be in production.
 */
export async function seed(
  database: Database,
  benchUserId: string,
  demoShopUrl: string,
  options: { analyze: boolean; proposedIndexes: boolean },
): Promise<SeedReport> {
  if (!UUID.test(benchUserId)) throw new Error(`unexpected user id ${benchUserId}`);
  const bench = `'${benchUserId}'::uuid`;
  const shop = `'${demoShopUrl.replaceAll("'", "''")}'`;
  const members = `u.email like '%@${MEMBER_DOMAIN}'`;
  const started = performance.now();

  const statements = [
    `insert into users (email, password_hash, first_name, last_name, company_name, country, allowed_projects_count, created_at)
     select 'member' || g || '@${MEMBER_DOMAIN}', '${UNUSABLE_PASSWORD_HASH}', 'Member', 'Number ' || g, 'Bench Corp', 'FR', 10,
            now() - interval '400 days' + g * interval '10 minutes'
     from generate_series(1, ${MEMBER_USERS}) g`,

    `insert into projects (name, url, demo, created_by, licence_expires_at, created_at)
     select 'Default', ${shop}, true, u.id, u.created_at + interval '14 days', u.created_at
     from users u where ${members}`,

    `insert into project_members (project_id, user_id, role, created_at)
     select p.id, p.created_by, 'ADMIN', p.created_at
     from projects p join users u on u.id = p.created_by where ${members}`,

    // Spread over the last ~40 days, a third licensed, some licences already expired.
    `insert into projects (name, url, description, created_by, licence_expires_at, licensed, max_execution_threads, created_at)
     select 'Bench project ' || g, 'https://shop-' || g || '.example.test', 'Seeded project ' || g || ' of the API latency bench',
            ${bench}, now() + (g % 60 - 10) * interval '1 day', g % 3 = 0, 2 + g % 3,
            now() - (${SEED.projects} - g) * interval '1 hour'
     from generate_series(1, ${SEED.projects - 1}) g`,

    `insert into project_members (project_id, user_id, role, created_at)
     select p.id, ${bench}, 'ADMIN', p.created_at
     from projects p where p.created_by = ${bench} and p.name like 'Bench project %'`,

    // Project k (in creation order, the Default one last) gets member users k*49 .. k*49+48.
    `insert into project_members (project_id, user_id, role, created_at)
     select p.id, u.id, 'MEMBER', least(now(), p.created_at + (u.n % ${OTHERS_PER_PROJECT} + 1) * interval '1 minute')
     from (select id, created_at, row_number() over (order by created_at, id) - 1 as k
           from projects where created_by = ${bench}) p
     join (select u.id, row_number() over (order by u.created_at, u.id) - 1 as n
           from users u where ${members}) u
       on u.n / ${OTHERS_PER_PROJECT} = p.k`,

    `insert into invitations (project_id, email, invited_by, status, created_at, responded_at)
     select p.id, 'guest' || i || '-' || left(p.id::text, 8) || '@bench-partner.test', ${bench},
            case when i <= ${SEED.pendingInvitations} then 'pending' else 'accepted' end,
            least(now(), p.created_at + i * interval '1 minute'),
            case when i <= ${SEED.pendingInvitations} then null else least(now(), p.created_at + i * interval '2 minutes') end
     from projects p cross join generate_series(1, ${SEED.invitationsPerProject}) i
     where p.created_by = ${bench}`,
  ];
  const proposedIndexes = options.proposedIndexes ? PROPOSED_INDEXES : [];
  for (const statement of [...statements, ...proposedIndexes]) await database.execute(statement);
  // PostgreSQL's autovacuum would analyze these tables soon after such a load; PGlite has no
  // autovacuum, so `--no-analyze` measures what an embedded installation that never ran ANALYZE sees.
  if (options.analyze) await database.execute('vacuum analyze users, projects, project_members, invitations, sessions');
  const ms = performance.now() - started;

  const counts = await database.rows<SeedReport['rows']>(
    `select (select count(*) from users)::int as users, (select count(*) from projects)::int as projects,
            (select count(*) from project_members)::int as "projectMembers", (select count(*) from invitations)::int as invitations`,
  );
  const row = counts[0];
  if (!row) throw new Error('row counts missing');
  return { ms, analyzed: options.analyze, proposedIndexes, rows: row };
}
