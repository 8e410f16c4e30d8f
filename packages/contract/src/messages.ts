import { Limits } from './constants.js';

/**
 * Every user-facing message of the platform, so the server and the web app say the same thing.
 * Wording in quotes in the specification is kept exactly, typos included.
 */
export const Messages = {
  // Generic request problems
  invalidJson: 'The request body is not valid JSON.',
  invalidUtf8: 'The request body is not valid UTF-8.',
  bodyTooLarge: 'The request body is too large.',
  unsupportedMediaType: 'The request body must be JSON.',
  textHasNul: 'Text cannot contain the NUL character (\\u0000).',
  textNotUnicode: 'Text must be valid Unicode: half of a surrogate pair (such as \\ud800) on its own cannot be stored.',
  binaryContent: 'Binary content cannot be stored in the workspace.',
  reservedName: 'This name is reserved: __proto__, constructor and prototype cannot be used.',
  dateInvalid: 'Times must be ISO 8601 date-times, e.g. 2026-01-31T12:00:00Z.',
  notFound: 'Not found.',
  internal: 'Something went wrong on the server. Please try again.',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',

  // Sessions and sign-in
  unauthenticated: 'Please sign in to continue.',
  sessionExpired: 'Your session has expired. Please login again.',
  invalidCredentials: 'Invalid email or password.',
  emailTaken: 'An account with this email already exists.',
  emailInvalid: 'Please enter a valid email address.',
  passwordTooShort: 'Password must be at least 8 characters.',
  passwordTooLong: 'Password cannot be more than 128 characters.',
  firstNameEmpty: 'First name cannot be empty',
  lastNameEmpty: 'Last name cannot be empty',
  accessKeyNotForUserCalls: 'Access keys can only be used for calls about their own project.',
  accountLocked: 'Too many failed sign-ins for this account. Try again in {n} seconds.',
  clientLocked: 'Too many failed sign-ins from this address. Try again in {n} seconds.',
  signInBusy: 'The server is busy signing people in. Try again in {n} seconds.',
  signupClosed: 'Sign-up is closed on this server. Ask its administrator for an account.',
  ssoNotConfigured: 'Single sign-on is not set up on this server.',
  ssoIssuerInvalid: "Enter the identity provider's issuer URL: https://, or http:// on this machine only.",
  ssoClientIdEmpty: 'Enter the client ID your identity provider gave Rehearse.',
  ssoClientSecretEmpty: 'Enter the client secret your identity provider gave Rehearse.',
  ssoNameEmpty: "Enter the name the sign-in button shows (for example your company's).",
  ssoProviderUnreachable:
    'Rehearse could not read the OpenID configuration at this issuer ({reason}). Check the URL, and that this server can reach it.',
  signupLocalSingleUser:
    'This Rehearse is a local single-user install (this machine cannot sandbox test code), and it has its user already. Run Rehearse on a server or in its container image to share it with a team.',
  twoFactorRequired: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  twoFactorInvalid: 'That code is not right, or was already used. Enter the current 6-digit code, or an unused recovery code.',
  twoFactorNotStarted: 'Start turning on two-factor sign-in first: scan the new QR code, then enter its code.',
  twoFactorAlreadyOn: 'Two-factor sign-in is already on for this account.',
  twoFactorNotOn: 'Two-factor sign-in is not on for this account.',
  signupNeedsInvitation: 'Sign-up on this server needs an invitation. Ask a project admin to invite this email address.',
  signupDomainNotAllowed: 'Sign-up on this server needs an invitation or an email address at an allowed domain.',

  // Projects
  projectNotFound: 'Project not found.',
  projectIdInvalid: 'Invalid project id.',
  notAMember: 'You do not have access to this project.',
  accessKeyOtherProject: 'This access key belongs to another project.',
  projectNameEmpty: 'Name cannot be empty',
  projectNameTooLong: 'Name cannot be more than 80 characters.',
  projectUrlInvalid: 'Please enter a valid URL',
  projectLimitReached: 'You have reached the number of projects you can create.',
  deleteProjectNotAllowed: 'You do not have permission to delete this project',
  adminRoleRequired: 'Only the project admin can do this.',
  licenceExpired: "This project's license has expired. Ask your administrator to extend it.",
  projectCreated: 'New project created successfully',
  defaultProjectName: 'Default',

  // Invitations and members
  inviteNoEmails: 'Please enter at least one email address.',
  inviteSelf: 'You cannot invite yourself to the project.',
  inviteNotUnique: 'Please enter unique email addresses.',
  inviteAlreadyMember: 'The user is already a member or has been invited to the project.',
  inviteTrial: "You can't invite users during trial",
  inviteNoPermission: 'You do not have permission to invite members',
  inviteInvalidEmail: 'Please enter valid email addresses.',
  invitationNoId: 'Invalid invitation,no id',
  invitationNoInviter: 'Invalid invitation,no inviter email',
  invitationNoProject: 'Invalid invitation,no project',
  invitationInvalid: 'This invitation is invalid',
  invitationOtherEmail: 'This invitation was sent to a different email address.',
  invitationAcceptFailed: 'There was an error in accepting invitation',
  invitationDeclineFailed: 'There was an error in declining invitation',
  invitationDeclined: 'You have declined the invitation',
  removeSelf: 'You cannot remove yourself from the project.',
  removeAdmin: 'The project admin cannot be removed.',
  memberNotFound: 'This member or invitation no longer exists.',

  // Access tokens
  tokenNameEmpty: 'Token name cannot be empty',
  tokenNameTooLong: 'Token name cannot be more than 64 characters.',
  accessKeyNotFound: 'Access token not found.',
  accessTokenRequired: 'Access token required: Generate an access token to use this feature',
  /** Logged (never shown) when a feature that needs an access key finds none (spec 02 §8). */
  noAccessKeyFound: 'No Access Key found',
  accessKeySecretsAdminOnly: 'Only access keys created by a project admin can read secret test data. Ask your project admin for a key.',
  accessKeyRevokeNotAllowed: 'Only a project admin can revoke an access key someone else created.',
  accessKeyManageNeedsSession: 'Access keys cannot create or revoke access keys; sign in to manage them.',
  accessKeyExpiryInvalid: 'The expiry must be a date and time in the future.',

  // Workspace
  branchNameInvalid: 'Invalid branch name.',
  branchesNeedPrivateRepo: 'Branches are available only for projects with a private repository.',
  branchFieldsMissing: 'Please fill in all fields.',
  branchExists: 'A branch with this name already exists.',
  branchNotFound: 'This branch does not exist.',
  commitInvalid: 'Invalid commit: a full commit id (40 hexadecimal characters) is expected.',
  commitNotFound: "This commit does not exist in the project's workspace.",
  workspaceBranchMissing: (branch: string) => `Branch "${branch}" does not exist.`,
  workspaceFileNotJson: (path: string) => `${path} is not valid JSON.`,
  workspaceChangedWhileSaving: 'The workspace changed while saving. Please try again.',
  workspaceFileTooLarge: `Files larger than ${Limits.workspaceFileMax.toLocaleString('en-US')} characters cannot be stored.`,
  workspaceFileNotUtf8: 'The file is not valid UTF-8 text.',
  branchIsCurrent: 'The current branch cannot be deleted.',
  branchMainProtected: 'The main branch cannot be deleted.',
  createBranchSuccess: 'New branch created successfully',
  pathInvalid: 'The path must stay inside the workspace: no "..", no absolute paths, no name starting with "-".',
  fileNotFound: 'File not found.',
  environmentNotFound: 'Environment not found.',
  featureNotFound: 'Feature not found.',
  scenarioNotFound: 'Scenario not found.',
  testDataKeyTaken: 'This key was added previously',
  testDataRowNotFound: 'Test data row not found.',
  testDataNotTotp: 'This test data row is not a totp value.',
  changesSaved: 'Changes saved successfully',
  unusedStepsDeleted: '{n} unused steps deleted',
  // The spec gives only the plural; one step reads in the singular.
  unusedStepDeleted: '1 unused step deleted',
  stepFileNameInvalid: 'Step definition files must be named like name.mjs, without folders.',
  testDataTypeInvalid: 'DataType must be string, secret or totp.',
  totpSecretInvalid: 'The totp value must be a base32 secret key.',

  // Private repository
  privateRepoCredentials: 'There was an error, please make sure your credentials are correct',
  privateRepoUrlRequired: 'Repository URL is required.',
  privateRepoUrlInvalid: 'The repository URL must be an http(s) address without a username or password in it.',
  privateRepoFieldsMissing: 'Username and token are required.',
  privateRepoConflict: 'The remote repository has changes that conflict with this one. Reload and try again.',
  /** Spec 01 §6 / 02 §6: "enabling/disabling requires support" (an instance administrator, Administration → Projects). */
  privateRepoNotEnabled:
    'The private repository integration is not enabled for this project. Support enables it: ask your Rehearse administrator.',

  // Mail / authenticator users
  mailUserFieldsMissing: 'Username and password are required.',
  mailUserExists: 'A user with this username already exists.',
  mailUserNotFound: 'User not found.',
  mailUserNoSecret: 'This user has no authenticator secret key.',
  mailUserSecretInvalid: 'The secret key must be a base32 authenticator key.',
  addAuthenticatorFailed: 'Error adding authenticator, please try again later',
  getUserInfoFailed: 'Error getting user information, please try again later',
  deleteUserFailed: 'An error occurred while deleting the user. Please try again later.',

  // Runs and reports
  runNotFound: 'Run not found.',
  testCaseNotFound: 'Scenario execution not found.',
  screenshotNotFound: 'No screenshot available',
  traceNotFound: 'This scenario has no trace. Traces are kept for failed scenarios by default (trace in rehearse.config.json).',
  traceLinkExpired: 'This trace link has expired or is not valid. Open the trace again from the scenario report.',
  artifactTooLarge: 'Artifacts can be at most 10 MB.',
  artifactQuotaReached: (megabytes: number) =>
    `This project keeps at most ${megabytes} MB of screenshots, traces and reports, and this upload would pass it. Delete old runs, or ask the administrator to raise ARTIFACT_QUOTA_MB.`,
  artifactNotBase64: 'The artifact data must be base64.',
  retentionDays: 'Keep runs for a whole number of days from 1 to 3650, or leave it empty to keep them however old.',
  retentionRuns: 'Keep a whole number of runs from 1 to 1,000,000, or leave it empty to keep any number.',
  artifactUnknown: 'The report names a screenshot that was not uploaded: ',
  commentEmpty: 'Comment cannot be empty.',
  commentNotFound: 'Comment not found.',
  commentNotYours: 'You can only change your own comments.',
  jobNotFound: 'Scenario run not found.',
  jobInterrupted: 'The server restarted while this scenario was running. Please run it again.',
  jobTimedOut: 'The scenario did not finish within the time limit.',
  /** A job's deadline passed (issue 21); `limit` reads like "15 minutes". */
  jobDeadlinePassed: (limit: string) => `The scenario did not finish within ${limit} and was stopped at its deadline.`,
  /** A job's workspace download failed and the runner said nothing more. */
  jobWorkspaceNotDownloaded: 'Could not download the workspace.',
  /** A job's runner exited with an error and said nothing more. */
  jobRunnerStopped: (code: number | null) => `The runner stopped with code ${String(code)}.`,
  uploadKeyReused: 'This upload key was already used for a different report. Use a new key for a new report.',
  runTestDataNeedsKey: 'Test data values are only given to runs authenticated with an access key.',

  // Executions
  executionNotFound: 'Execution not found.',
  executionNameRequired: 'Name is required.',
  executionEnvRequired: 'Environment is required.',
  executionBranchRequired: 'Branch is required.',
  executionRunning: 'This execution is running; stop it first.',
  flowRequired: 'An execution needs at least one flow.',
  flowGroupRequired: 'Every flow needs at least one scenario group.',
  groupTagRequired: 'Select at least one tag for every scenario group.',
  unknownTag: 'Unknown tag: ',
  threadCountInvalid: 'Thread count must be a whole number from 0 to the threads available.',
  threadCountTooHigh: 'Thread count is higher than the threads this project has: ',
  insufficientThreads: 'Insufficient threads',
  noThreads: 'No threads available to execute scenarios',
  scheduleRequired: 'Schedule is required',
  scheduleDaysRequired: 'Choose at least one day.',
  scheduleDaysOrder: 'Days must be in week order (Mon to Sun), each once.',
  scheduleTimeInvalid: 'Time must be HH:mm in 15-minute steps.',
  scheduleTimeZoneInvalid: 'Time zone must be an offset from -12 to 14 hours in quarter hours.',
  scheduleIanaTimeZoneInvalid: 'Time zone must be an IANA time zone name such as America/New_York.',
  executionSaved: 'Execution saved successfully',
  executionSaveFailed: 'Failed to save execution',
  executionNoScenarios: 'This execution has no scenarios to run: its groups’ tags match none.',
  executionNotRunning: 'This execution is not running.',
  executionHalted: 'Stopped by a user.',
  executionGroupSkipped: 'Skipped: a scenario of an earlier group of this flow failed.',
  executionGroupSkippedAfterError: 'Skipped: a scenario of an earlier group of this flow could not run (an infrastructure error).',
  workerTokenInvalid: 'A valid worker token is required.',

  // Instance administration
  instanceAdminOnly: 'Only an instance administrator can do this.',
  accountDisabled: 'This account has been disabled. Ask an instance administrator to enable it again.',
  adminUserNotFound: 'No user with this id.',
  adminProjectNotFound: 'No project with this id.',
  adminWorkerTokenNotFound: 'No worker token with this id.',
  adminCannotDisableSelf: 'You cannot disable your own account.',
  adminCannotDemoteSelf: 'You cannot remove your own administrator right; ask another instance administrator.',
  adminLicenceDays: 'Days must be a whole number from 1 to 3650.',
  adminThreads: 'Execution threads must be a whole number from 0 to 64.',
  adminAllowedProjects: 'Allowed projects must be a whole number from 0 to 10000.',
  adminWorkerTokenName: 'Give the worker token a name of 1 to 100 characters.',
  adminSignupDomains: 'List at least one email domain, such as example.com.',
  adminNothingToChange: 'Say what to change.',
  adminSessionIdleHours: 'Session idle hours must be a whole number from 1 to 8760.',
  adminJobAttempts: 'Job attempts must be a whole number from 1 to 10.',
  adminJobRetryBackoff: 'Retry backoff must be a whole number of seconds from 0 to 600.',
  adminJobHistoryDays: 'Job history must be kept a whole number of days from 1 to 3650.',
  jobKeyCallRefused:
    'This key belongs to a running job: it only downloads the workspace, reads the run’s test data and uploads the run’s results.',
  workerLost: 'The worker running this scenario stopped responding.',

  // AI engine
  aiStepUpdateFailed: 'Error updating the step code. Please try again.',
  scenarioCreationFailed: 'An error occurred while trying to create the scenarios, please try again.',
  /** A plain-English line no step reads: nothing is written, and the user learns which line to change. */
  plainEnglishNotUnderstood: (lines: readonly string[]) =>
    `Nothing was created: ${lines.length === 1 ? 'this line does' : 'these lines do'} not read as a step: ${lines.map((line) => `“${line}”`).join(', ')}. Rephrase ${lines.length === 1 ? 'it' : 'them'} with the words of the Steps reference, or write a step in Gherkin.`,
  plainEnglishFlowEmpty: 'The flow cannot be empty.',
  /** A plain-English line that opens a host no environment of the project has: asked about, not written. */
  plainEnglishOtherHost: (host: string) =>
    `This line opens ${host}, a site outside this project’s environments. Open the page under the environment instead, or write the step in Gherkin to test another site.`,
  /** Nouns read against the application map (issue 44): why a step differs from the words' own reading. */
  plainEnglishMapPage: (page: string, route: string, heading: string) =>
    `The app’s map has no page “${page}”: this opens ${route}, its page ${heading ? `headed “${heading}”` : 'of that name'}.`,
  plainEnglishMapRowCheckbox: (name: string) =>
    `No checkbox on the app’s map is named “${name}”: this means the checkbox in the item containing “${name}”.`,
  plainEnglishMapField: (name: string, field: string, only: boolean) =>
    `No field of this page on the app’s map is named “${name}”: this uses the field “${field}”, ${only ? 'the page’s only one' : 'the one whose name shares its words'}.`,
  plainEnglishFlowTooLong: 'A scenario holds at most 200 lines. Split the flow into several scenarios.',
  plainEnglishLineTooLong: 'A line holds at most 1,000 characters. Split it into several lines.',
  /** scenarios/scenario-creation's `parameters` sent as the spec's JSON key/value string that does not parse as one. */
  scenarioParametersInvalid: 'The parameters must be a JSON object of names and text values, e.g. {"user": "demo@rehearse.dev"}.',
  scenarioNameExists: 'Scenario name already exists.',
  ideasFieldsMissing: 'Please fill in all fields.',
  ideasNoneSelected: 'Please select at least one scenario.',
  oversightNotFound: 'This code review item no longer exists.',
  oversightConflict: 'The locator file changed since this fix was found. Run the scenario with AI recovery again.',
  aiRequestNotUnderstood:
    'This request needs an AI provider. Use one of the quick prompts, or ask your administrator to configure AI_BASE_URL.',
  stepAlreadyImplemented: 'This step already has code: a step definition or a built-in step matches it.',
  aiStepNotUnderstood:
    'The step could not be turned into code. Rephrase it with the plain-English steps (open, click, fill, select, check, press, see, wait).',

  // Cloud and local recorder (spec 02 §8, verbatim)
  recorderSessionLoadTitle: 'Session could not be loaded',
  recorderSessionLoadError:
    'An error occured while starting the session, please try again. If the issue persists, switch to local recording.',
  recorderOverloaded: 'Server is overloaded with recorder requests, please try again at a later time',
  recorderSessionEnded: 'Session has ended, to record a new scenario, please start a new session',
  recorderEndConfirm: 'Are you sure you want to end the session? All changes will be discarded',
  recorderExpiryWarning: 'Session expires soon, publish the recording before session ends',
  recorderMaxSessionsTitle: 'You have reached the maximum number of sessions',
  recorderMaxSessions: 'Only 2 concurrent sessions per user are allowed. Please end ongoing sessions and try again.',
  recorderProjectFull: 'This project is already using all of its {n} cloud recorder sessions. Try again when one of them ends.',
  recorderUnreachableTitle: 'Your environment is not reachable from the cloud',
  recorderUnreachable:
    'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
  recorderSessionNotFound: 'This recorder session does not exist or has ended.',
  recorderNothingToPublish: 'Record at least one step before publishing.',
  recorderUrlInvalid: 'URL must begin with http:// or https://',
  recorderOperationUnknown: 'Unknown recorder operation. Use recorder, ai_learn, execute, apitest or open_vscode.',
  recorderLaunchNoEnvironment: 'This project has no environment yet. Create one under Environments, then record.',
  // The self-check after Publish (DESIGN §7): the recording replayed once on the recorded app.
  recorderCheckRunning: 'Checking the recording…',
  recorderCheckPassed: (steps: number) => `Replayed: all ${steps} step${steps === 1 ? '' : 's'} pass`,
  recorderCheckFailed: (step: number, text: string, reason: string) => `Step ${step} did not replay: ${text} — ${reason}`,
  recorderCheckError: (reason: string) => `The recording could not be replayed to check it: ${reason}`,
  recorderCheckFix: 'Published as recorded. Fix that step in the scenario, or record it again, before relying on it.',
  recorderCheckNoReport: 'the replay reported no scenario.',
  recorderCheckUndefined: 'no step definition matches this step.',
  recorderCheckLeave: 'The recording is still being replayed to check it. Leave without knowing whether it replays?',

  // Client downloads and the runner
  runnerVersionUnknown:
    'This server has no runner package of that version. Install rehearse-runner-latest.tgz, the version this server speaks.',
  runnerNotBuilt:
    'The runner package has not been built on this server: start it with npm start (or run npm run build:package --workspace packages/cli).',
  instructionsUnknownEnvironment: 'The project has no environment of that name at this branch: pick one of its environments.',
  keyProjectNeedsKey: 'Only an access key has a project of its own: sign-in sessions name the project in each call.',

  // Activity log
  logTooManyEntries: 'Send at most 100 log entries at a time.',
} as const;

export type MessageKey = keyof typeof Messages;

/** The sentence after removing unused step definitions: singular for one, the spec's words otherwise. */
export function unusedStepsDeletedMessage(n: number): string {
  return n === 1 ? Messages.unusedStepDeleted : Messages.unusedStepsDeleted.replace('{n}', String(n));
}
