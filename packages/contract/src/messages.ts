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

  // Workspace
  branchNameInvalid: 'Invalid branch name.',
  branchesNeedPrivateRepo: 'Branches are available only for projects with a private repository.',
  branchFieldsMissing: 'Please fill in all fields.',
  branchExists: 'A branch with this name already exists.',
  branchNotFound: 'This branch does not exist.',
  branchIsCurrent: 'The current branch cannot be deleted.',
  branchMainProtected: 'The main branch cannot be deleted.',
  createBranchSuccess: 'New branch created successfully',
  pathInvalid: 'The path must stay inside the workspace: no "..", no absolute paths.',
  fileNotFound: 'File not found.',
  environmentNotFound: 'Environment not found.',
  featureNotFound: 'Feature not found.',
  scenarioNotFound: 'Scenario not found.',
  testDataKeyTaken: 'This key was added previously',
  testDataRowNotFound: 'Test data row not found.',
  testDataNotTotp: 'This test data row is not a totp value.',
  changesSaved: 'Changes saved successfully',
  unusedStepsDeleted: '{n} unused steps deleted',
  stepFileNameInvalid: 'Step definition files must be named like name.mjs, without folders.',
  testDataTypeInvalid: 'DataType must be string, secret or totp.',
  totpSecretInvalid: 'The totp value must be a base32 secret key.',

  // Private repository
  privateRepoCredentials: 'There was an error, please make sure your credentials are correct',
  privateRepoUrlRequired: 'Repository URL is required.',
  privateRepoUrlInvalid: 'The repository URL must be an http(s) address without a username or password in it.',
  privateRepoFieldsMissing: 'Username and token are required.',
  privateRepoConflict: 'The remote repository has changes that conflict with this one. Reload and try again.',

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
  artifactTooLarge: 'Artifacts can be at most 10 MB.',
  artifactNotBase64: 'The artifact data must be base64.',
  artifactUnknown: 'The report names a screenshot that was not uploaded: ',
  commentEmpty: 'Comment cannot be empty.',
  commentNotFound: 'Comment not found.',
  commentNotYours: 'You can only change your own comments.',
  jobNotFound: 'Scenario run not found.',
  jobInterrupted: 'The server restarted while this scenario was running. Please run it again.',
  jobTimedOut: 'The scenario did not finish within the time limit.',
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
  executionSaved: 'Execution saved successfully',
  executionSaveFailed: 'Failed to save execution',

  // Activity log
  logTooManyEntries: 'Send at most 100 log entries at a time.',
} as const;

export type MessageKey = keyof typeof Messages;
