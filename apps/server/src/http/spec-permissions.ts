/**
 * Who may make each call, written by hand from the product spec (`shared/spec/01-shell.md` and
 * `02-platform.md`: §1 who the product is for, §6 Roles and permissions, §7 Calls, §8 messages).
 * The permission matrix (`permissions.test.ts`) sends every contract call as every caller below and
 * compares the server's answer with this table, never with the contract's own `access` and `role`
 * flags: a call the contract declares wrongly then fails the matrix instead of passing it.
 *
 * What the spec says, and what follows from it here:
 * - 02 §7: every call carries a bearer session token, so a call without one is refused, except the
 *   few that cannot have one (sign-up, sign-in) and what the product serves to anyone (below).
 * - 01 §1: users belong to projects, and a project has members and access keys; 01 §3: an access key
 *   has one projectId. So a project's calls are for its members and its own access keys.
 * - 01 §6: deleting a project needs the project role ADMIN ('You do not have permission to delete
 *   this project'); inviting needs the sendInvitation role check ('You do not have permission to
 *   invite members'), and trial projects cannot invite outside the vendor's domains ('You can't
 *   invite users during trial'); removing members needs ADMIN; 'Set up Git' is for admins.
 * - 02 §6: no explicit roles for executions: every member may plan, run and stop them.
 * - 01 §6 and 02 §6 say nothing of other roles ("Other roles: not shown"); where a line below has no
 *   spec reference it is the product's decision, and its comment says the spec is silent.
 *
 * Callers: `member` is a project member whose role is not ADMIN (01 §3: "role (ADMIN or other)";
 * the product calls it MEMBER); `memberKey` and `adminKey` are access keys of the project made by
 * the member and by the admin; `otherProjectKey` is a key of another project; `signedIn` is a
 * signed-in person who is not a member of the project; `instanceAdmin` is an instance
 * administrator (01 §6 is silent; DESIGN §12) who is not a member of the project either: the
 * right administers the instance, it opens no project's content.
 */

export const SPEC_CALLERS = [
  'anonymous',
  'signedIn',
  'otherProjectKey',
  'member',
  'memberKey',
  'admin',
  'adminKey',
  'instanceAdmin',
] as const;
export type SpecCaller = (typeof SPEC_CALLERS)[number];

/** The caller gets past access control: a 2xx, or an answer about its input (never 401, 403 or 5xx). */
export const ALLOWED = 'allowed';

/** The caller is refused with exactly this status and message. */
export interface Refusal {
  status: 401 | 403 | 404;
  message: string;
}

export type Outcome = typeof ALLOWED | Refusal;
export type CallRule = Readonly<Record<SpecCaller, Outcome>>;

function refused(status: Refusal['status'], message: string): Refusal {
  return { status, message };
}

// The spec's words (01 §6, repeated in 02 §8's invite rules).
const DELETE_PROJECT_DENIED = refused(403, 'You do not have permission to delete this project');
const INVITE_DENIED = refused(403, 'You do not have permission to invite members');
const TRIAL_INVITE = refused(403, "You can't invite users during trial");

// The spec gives no words for these refusals; the product's, pinned as users read them.
const SIGN_IN = refused(401, 'Please sign in to continue.');
const NOT_A_MEMBER = refused(403, 'You do not have access to this project.');
const OTHER_PROJECT_KEY = refused(403, 'This access key belongs to another project.');
const KEY_ON_PERSONAL_CALL = refused(403, 'Access keys can only be used for calls about their own project.');
const ADMIN_ONLY = refused(403, 'Only the project admin can do this.');
const KEYS_NEED_SESSION = refused(403, 'Access keys cannot create or revoke access keys; sign in to manage them.');
const REVOKE_OTHERS_KEY = refused(403, 'Only a project admin can revoke an access key someone else created.');
const TEST_DATA_NEEDS_KEY = refused(403, 'Test data values are only given to runs authenticated with an access key.');
const KEY_PROJECT_NEEDS_KEY = refused(403, 'Only an access key has a project of its own: sign-in sessions name the project in each call.');
const NOT_YOUR_COMMENT = refused(403, 'You can only change your own comments.');
const NOT_YOUR_RECORDER_SESSION = refused(404, 'This recorder session does not exist or has ended.');
const WORKER_TOKEN = refused(401, 'A valid worker token is required.');
const INSTANCE_ADMIN_ONLY = refused(403, 'Only an instance administrator can do this.');

/** Anyone, signed in or not. */
const EVERYONE: CallRule = {
  anonymous: ALLOWED,
  signedIn: ALLOWED,
  otherProjectKey: ALLOWED,
  member: ALLOWED,
  memberKey: ALLOWED,
  admin: ALLOWED,
  adminKey: ALLOWED,
  instanceAdmin: ALLOWED,
};

/**
 * Any signed-in person, about themselves rather than a project. Access keys are refused: the spec
 * is silent on keys outside their project; the product holds that a key stands for its project only.
 */
const SIGNED_IN_PEOPLE: CallRule = {
  anonymous: SIGN_IN,
  signedIn: ALLOWED,
  otherProjectKey: KEY_ON_PERSONAL_CALL,
  member: ALLOWED,
  memberKey: KEY_ON_PERSONAL_CALL,
  admin: ALLOWED,
  adminKey: KEY_ON_PERSONAL_CALL,
  instanceAdmin: ALLOWED,
};

/**
 * The project's members (01 §1) and its access keys (01 §3). A key acts with the role of the person
 * who made it: the spec is silent on what a key may do; this is the product's decision.
 */
const PROJECT_MEMBERS: CallRule = {
  anonymous: SIGN_IN,
  signedIn: NOT_A_MEMBER,
  otherProjectKey: OTHER_PROJECT_KEY,
  member: ALLOWED,
  memberKey: ALLOWED,
  admin: ALLOWED,
  adminKey: ALLOWED,
  instanceAdmin: NOT_A_MEMBER,
};

/** The project admin only (and keys the admin made); a member, or a member's key, gets `refusal`. */
function projectAdmin(refusal: Refusal): CallRule {
  return { ...PROJECT_MEMBERS, member: refusal, memberKey: refusal };
}

/** Every caller refused alike. */
function allRefused(refusal: Refusal): CallRule {
  return {
    anonymous: refusal,
    signedIn: refusal,
    otherProjectKey: refusal,
    member: refusal,
    memberKey: refusal,
    admin: refusal,
    adminKey: refusal,
    instanceAdmin: refusal,
  };
}

/**
 * Instance administrators only (DESIGN §12; the spec is silent): every other person is refused
 * with the product's words, and access keys as on any call about a person rather than a project.
 */
const INSTANCE_ADMINS: CallRule = {
  anonymous: SIGN_IN,
  signedIn: INSTANCE_ADMIN_ONLY,
  otherProjectKey: KEY_ON_PERSONAL_CALL,
  member: INSTANCE_ADMIN_ONLY,
  memberKey: KEY_ON_PERSONAL_CALL,
  admin: INSTANCE_ADMIN_ONLY,
  adminKey: KEY_ON_PERSONAL_CALL,
  instanceAdmin: ALLOWED,
};

/** Members signed in; the project's keys are refused (the spec is silent: keys do not make keys). */
const PROJECT_MEMBERS_SIGNED_IN: CallRule = { ...PROJECT_MEMBERS, memberKey: KEYS_NEED_SESSION, adminKey: KEYS_NEED_SESSION };

/**
 * The spec's answer for every caller on every contract call, keyed `<export>.<call>` as the contract
 * names them (`authCalls.deleteProject` is `deleteProject` of `authCalls`).
 */
export const SPEC_PERMISSIONS: Readonly<Record<string, CallRule>> = {
  // ── Auth service (02 §7) ──
  // Sign-up and sign-in are how one gets a session, so nobody can need one first.
  'authCalls.signup': EVERYONE,
  'authCalls.login': EVERYONE,
  // Our single sign-on (DESIGN §9): before any session exists, so open to everyone.
  'authCalls.ssoConfig': EVERYONE,
  'authCalls.ssoStart': EVERYONE,
  'authCalls.ssoCallback': EVERYONE,
  // Two-factor sign-in is the caller's own account: any signed-in user, never an access key.
  'authCalls.twoFactorStatus': SIGNED_IN_PEOPLE,
  'authCalls.twoFactorBegin': SIGNED_IN_PEOPLE,
  'authCalls.twoFactorEnable': SIGNED_IN_PEOPLE,
  'authCalls.twoFactorDisable': SIGNED_IN_PEOPLE,
  // The spec is silent on logout and me (the session's own user); the product: any signed-in person.
  'authCalls.logout': SIGNED_IN_PEOPLE,
  'authCalls.me': SIGNED_IN_PEOPLE,
  // 02 §7 getProjects, CreateProject, getLastActiveProject: the caller's own projects, no project named.
  'authCalls.getProjects': SIGNED_IN_PEOPLE,
  'authCalls.createProject': SIGNED_IN_PEOPLE,
  'authCalls.getLastActiveProject': SIGNED_IN_PEOPLE,
  // 01 §6: "Project role ADMIN is needed to delete a project", with the tooltip's words.
  'authCalls.deleteProject': projectAdmin(DELETE_PROJECT_DENIED),
  'authCalls.updateLastActiveProjectId': PROJECT_MEMBERS,
  // 01 §2 members page; the spec is silent on who may list members: every member.
  'authCalls.getMembers': PROJECT_MEMBERS,
  // 01 §6: inviting needs the sendInvitation role, which only ADMIN holds; the fixture is a trial
  // project inviting outside the vendor's domains, so the admin gets 01 §6's trial refusal.
  'authCalls.createInvitation': { ...projectAdmin(INVITE_DENIED), admin: TRIAL_INVITE, adminKey: TRIAL_INVITE },
  // 01 §4 invitation: verify, accept or decline, by the invited person, who is not a member yet.
  'authCalls.verifyInvitation': SIGNED_IN_PEOPLE,
  'authCalls.addMember': SIGNED_IN_PEOPLE,
  'authCalls.declineInvitation': SIGNED_IN_PEOPLE,
  // 01 §6: "Removing members requires userRole ADMIN" (no words given).
  'authCalls.removeMemberOrInvitation': projectAdmin(ADMIN_ONLY),
  // 01 §6: screens ask checkRole before enabling a control, so every member may ask.
  'authCalls.checkRole': PROJECT_MEMBERS,
  'authCalls.isProjectExpired': PROJECT_MEMBERS,
  // 01 §2 access tokens page; the spec is silent on roles: every member lists and makes keys,
  // a member revokes only keys they made (the fixture's key is the admin's), keys manage no keys.
  'authCalls.getAccessKeys': PROJECT_MEMBERS,
  'authCalls.createAccessKey': PROJECT_MEMBERS_SIGNED_IN,
  'authCalls.deleteAccessKey': { ...PROJECT_MEMBERS_SIGNED_IN, member: REVOKE_OTHERS_KEY },
  'authCalls.createWorkspace': PROJECT_MEMBERS,
  'authCalls.getAllPrivateRepoInAProject': PROJECT_MEMBERS,
  // 01 §6 and 02 §6: 'Set up Git' is disabled for non-admins (no words given).
  'authCalls.addPrivateRepo': projectAdmin(ADMIN_ONLY),
  // 02 §7 POST /log, activity logging: a signed-in person's own activity.
  'authCalls.log': SIGNED_IN_PEOPLE,

  // ── System ──
  // The spec is silent on a health call; the product answers liveness and its version to anyone.
  'systemCalls.health': EVERYONE,
  // 02 §7 POST /api/storage/event: the signed-in person's product events.
  'systemCalls.storageEvent': SIGNED_IN_PEOPLE,

  // ── Workspace service (02 §7): project calls, so members and the project's keys ──
  'workspaceCalls.getEnvList': PROJECT_MEMBERS,
  'workspaceCalls.pushEnv': PROJECT_MEMBERS,
  'workspaceCalls.editEnv': PROJECT_MEMBERS,
  'workspaceCalls.deleteEnv': PROJECT_MEMBERS,
  'workspaceCalls.updateLastActiveWorkspace': PROJECT_MEMBERS,
  'workspaceCalls.getFeatureList': PROJECT_MEMBERS,
  'workspaceCalls.featuresCount': PROJECT_MEMBERS,
  'workspaceCalls.pushScenario': PROJECT_MEMBERS,
  'workspaceCalls.deleteFeature': PROJECT_MEMBERS,
  // The spec lists no delete-scenario, rename-scenario, set-scenario-tags or check-steps call (the
  // features page of 02 §2 does those things); the product: every member, like the calls beside them.
  'workspaceCalls.deleteScenario': PROJECT_MEMBERS,
  'workspaceCalls.renameFeature': PROJECT_MEMBERS,
  'workspaceCalls.renameScenario': PROJECT_MEMBERS,
  'workspaceCalls.setScenarioTags': PROJECT_MEMBERS,
  'workspaceCalls.storeAndGetSteps': PROJECT_MEMBERS,
  'workspaceCalls.getStepCodeByScenario': PROJECT_MEMBERS,
  'workspaceCalls.checkSteps': PROJECT_MEMBERS,
  'workspaceCalls.pushFile': PROJECT_MEMBERS,
  'workspaceCalls.getFiles': PROJECT_MEMBERS,
  'workspaceCalls.deleteFile': PROJECT_MEMBERS,
  'workspaceCalls.getFileContent': PROJECT_MEMBERS,
  'workspaceCalls.lastUpdated': PROJECT_MEMBERS,
  'workspaceCalls.getStableVersions': PROJECT_MEMBERS,
  'workspaceCalls.uploadMjs': PROJECT_MEMBERS,
  'workspaceCalls.getAllBranches': PROJECT_MEMBERS,
  'workspaceCalls.createNewBranch': PROJECT_MEMBERS,
  'workspaceCalls.deleteBranch': PROJECT_MEMBERS,
  'workspaceCalls.getTestData': PROJECT_MEMBERS,
  'workspaceCalls.changeTestData': PROJECT_MEMBERS,
  // The spec is silent on a totp-code call (02 §5: "totp shows the current code"): every member.
  'workspaceCalls.getTotpCode': PROJECT_MEMBERS,
  // Spec silent (02 §5 masks secrets for everyone): the admin may read one back, and it is audited.
  'workspaceCalls.revealTestDataSecret': projectAdmin(ADMIN_ONLY),
  'workspaceCalls.getUnusedStepDefinitions': PROJECT_MEMBERS,
  'workspaceCalls.updateWorkspace': PROJECT_MEMBERS,
  // The spec is silent on downloading a workspace (the runner's pull): members and the project's keys.
  'workspaceCalls.download': PROJECT_MEMBERS,
  'workspaceCalls.removeUnusedSteps': PROJECT_MEMBERS,

  // ── Mail users (02 §7): project calls ──
  'mailCalls.addUser': PROJECT_MEMBERS,
  'mailCalls.getUsers': PROJECT_MEMBERS,
  'mailCalls.updateUser': PROJECT_MEMBERS,
  'mailCalls.deleteUser': PROJECT_MEMBERS,
  'mailCalls.generateTotp': PROJECT_MEMBERS,

  // ── The runner's calls: the spec is silent (02 §6 only says runs use an access key) ──
  'runnerCalls.uploadArtifact': PROJECT_MEMBERS,
  'runnerCalls.uploadRun': PROJECT_MEMBERS,
  // Plain test data values go to a run's access key only; signed-in people see them masked elsewhere.
  'runnerCalls.runTestData': { ...PROJECT_MEMBERS, member: TEST_DATA_NEEDS_KEY, admin: TEST_DATA_NEEDS_KEY },
  // A key asks which project it belongs to (any key has one, its own); a person's session has none.
  'runnerCalls.keyProject': {
    anonymous: SIGN_IN,
    signedIn: KEY_PROJECT_NEEDS_KEY,
    otherProjectKey: ALLOWED,
    member: KEY_PROJECT_NEEDS_KEY,
    memberKey: ALLOWED,
    admin: KEY_PROJECT_NEEDS_KEY,
    adminKey: ALLOWED,
    instanceAdmin: KEY_PROJECT_NEEDS_KEY,
  },

  // ── Runs service (02 §7): project calls ──
  'runsCalls.getDetails': PROJECT_MEMBERS,
  'runsCalls.dashboardDetails': PROJECT_MEMBERS,
  'runsCalls.getRun': PROJECT_MEMBERS,
  'runsCalls.getScenario': PROJECT_MEMBERS,
  'runsCalls.runScreenshot': PROJECT_MEMBERS,
  'runsCalls.scenarioScreenshot': PROJECT_MEMBERS,
  'runsCalls.scenarioRunScreenshot': PROJECT_MEMBERS,
  // The spec is silent on traces; the product: members get a signed link, and the link itself is
  // the credential for the trace file (the trace viewer's service worker fetches it without a session).
  'runsCalls.traceLink': PROJECT_MEMBERS,
  'runsCalls.traceFile': EVERYONE,
  'runsCalls.addComment': PROJECT_MEMBERS,
  // The spec is silent on whose comments one may change; the product: the author's only (the
  // fixture's comment is the admin's).
  'runsCalls.updateComment': { ...PROJECT_MEMBERS, member: NOT_YOUR_COMMENT, memberKey: NOT_YOUR_COMMENT },
  'runsCalls.deleteComment': { ...PROJECT_MEMBERS, member: NOT_YOUR_COMMENT, memberKey: NOT_YOUR_COMMENT },
  'runsCalls.applicationMemory': PROJECT_MEMBERS,
  // 02 §2 features page "Run scenario": every member (the spec gives no roles for running).
  'scenarioJobCalls.runScenario': PROJECT_MEMBERS,
  'scenarioJobCalls.scenarioJob': PROJECT_MEMBERS,
  // The spec is silent (the product's): whoever may click "Run scenario" may have its runner warmed.
  'scenarioJobCalls.warmUp': PROJECT_MEMBERS,
  // Run retention: the spec is silent (the product's): members see it and try a dry run; only the admin sets it.
  'retentionCalls.getRetention': PROJECT_MEMBERS,
  'retentionCalls.previewRetention': PROJECT_MEMBERS,
  'retentionCalls.setRetention': projectAdmin(ADMIN_ONLY),

  // ── Executions (02 §7; 02 §6: "No explicit roles for executions") ──
  'executionCalls.create': PROJECT_MEMBERS,
  'executionCalls.update': PROJECT_MEMBERS,
  'executionCalls.get': PROJECT_MEMBERS,
  'executionCalls.list': PROJECT_MEMBERS,
  'executionCalls.remove': PROJECT_MEMBERS,
  'executionCalls.schedule': PROJECT_MEMBERS,
  'executionCalls.deschedule': PROJECT_MEMBERS,
  'executionCalls.run': PROJECT_MEMBERS,
  'executionCalls.halt': PROJECT_MEMBERS,
  'executionCalls.reportLink': PROJECT_MEMBERS,
  // The spec is silent on the CI/CD instructions call (02 §2 'How to run in CI/CD'): every member.
  'executionCalls.runInstructions': PROJECT_MEMBERS,
  'executionCalls.freeThreadCount': PROJECT_MEMBERS,

  // ── Worker protocol: the spec is silent; only a worker token (which no person or key holds) ──
  'workerCalls.claim': allRefused(WORKER_TOKEN),
  'workerCalls.heartbeat': allRefused(WORKER_TOKEN),
  'workerCalls.finish': allRefused(WORKER_TOKEN),

  // ── AI engine (02 §7 runs service: ideas, scenario-creation, generate; code review) ──
  'aiCalls.scenarioIdeas': PROJECT_MEMBERS,
  'aiCalls.scenarioCreation': PROJECT_MEMBERS,
  // The spec is silent on reading a flow before creating it (issue 44's questions): every member, as creation.
  'aiCalls.scenarioReading': PROJECT_MEMBERS,
  'aiCalls.generateStepCode': PROJECT_MEMBERS,
  // The spec is silent on generating one step's code from the toolbar (02 §2): every member.
  'aiCalls.generateStep': PROJECT_MEMBERS,
  'aiCalls.oversightList': PROJECT_MEMBERS,
  'aiCalls.archiveOversight': PROJECT_MEMBERS,
  // 01 §4 Code review "Accept changes": every member (only the licence blocks it).
  'aiCalls.acceptOversight': PROJECT_MEMBERS,

  // ── Cloud and local recorder (02 §7 remote recorder) ──
  'recorderCalls.createConnection': PROJECT_MEMBERS,
  'recorderCalls.activeSession': PROJECT_MEMBERS,
  // 02 §9: sessions are per user (2 concurrent per user); the spec is silent on reaching another
  // user's session: the product answers as if it did not exist (the fixture's session is the admin's).
  'recorderCalls.websocketUrl': { ...PROJECT_MEMBERS, member: NOT_YOUR_RECORDER_SESSION, memberKey: NOT_YOUR_RECORDER_SESSION },
  'recorderCalls.deleteConnection': { ...PROJECT_MEMBERS, member: NOT_YOUR_RECORDER_SESSION, memberKey: NOT_YOUR_RECORDER_SESSION },
  // 02 §7 concurrent-sessions-for-user and check-environment-is-reachable name a user, not a project.
  'recorderCalls.concurrentSessions': SIGNED_IN_PEOPLE,
  // Spec silent: the list behind the spec's "end ongoing sessions and try again" names the caller's
  // sessions in every project, so like the count it is the person's, not a key's.
  'recorderCalls.mySessions': SIGNED_IN_PEOPLE,
  'recorderCalls.checkReachable': SIGNED_IN_PEOPLE,
  'recorderCalls.publish': PROJECT_MEMBERS,
  // 01 §4 "Locally": the launch makes an access key, so (spec silent) a key cannot ask for one.
  'recorderCalls.localLaunch': PROJECT_MEMBERS_SIGNED_IN,

  // ── Client downloads: the spec is silent; the runner package is served to anyone ──
  'downloadCalls.runnerPackage': EVERYONE,
  // 02 §7 GET latestAssets: the open-recorder page's 'Download app' (01 §2); the spec is silent on
  // sign-in for it, the product answers anyone.
  'downloadCalls.latestAssets': EVERYONE,

  // ── Instance administration (DESIGN §12): instance administrators only, whatever their projects ──
  'adminCalls.listUsers': INSTANCE_ADMINS,
  'adminCalls.updateUser': INSTANCE_ADMINS,
  'adminCalls.clearSignInBlocks': INSTANCE_ADMINS,
  'adminCalls.resetTwoFactor': INSTANCE_ADMINS,
  'adminCalls.getSingleSignOn': INSTANCE_ADMINS,
  'adminCalls.updateSingleSignOn': INSTANCE_ADMINS,
  'adminCalls.clearSingleSignOn': INSTANCE_ADMINS,
  'adminCalls.listProjects': INSTANCE_ADMINS,
  'adminCalls.extendLicence': INSTANCE_ADMINS,
  'adminCalls.updateProject': INSTANCE_ADMINS,
  'adminCalls.listWorkers': INSTANCE_ADMINS,
  'adminCalls.createWorkerToken': INSTANCE_ADMINS,
  'adminCalls.deleteWorkerToken': INSTANCE_ADMINS,
  'adminCalls.getSettings': INSTANCE_ADMINS,
  'adminCalls.updateSettings': INSTANCE_ADMINS,
  'adminCalls.listActivity': INSTANCE_ADMINS,
};
