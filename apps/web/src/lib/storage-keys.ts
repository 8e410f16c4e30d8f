/** localStorage keys of the web app (kept apart so tests can import them without the DOM). */
export const StorageKeys = {
  /** The bearer session token returned by signup and login. */
  token: 'rehearse.token',
  /** Where the recorder opens: 'local' or 'cloud' (spec 01 §4: `recorderOption`, default Locally). */
  recorderOption: 'recorderOption',
  /** The persisted TanStack Query cache (spec 02 §9: the query cache is persisted locally). */
  queryCache: 'rehearse.query-cache',
  /**
   * Test switch: milliseconds to wait after creating a project instead of the spec's 30 s / 10 s.
   * Only the e2e suite sets it (`localStorage.setItem('rehearse.projectCreationWaitMs', '0')`);
   * the app never writes it.
   */
  projectCreationWaitMs: 'rehearse.projectCreationWaitMs',
  /**
   * A first-time user's guided tour waits for the features page: set at sign-up and where
   * `?newUser=` arrives (the dashboard, after creating the first project), cleared when the tour
   * is finished or skipped.
   */
  tourPending: 'rehearse.tourPending',
  /** The instance administrator has read the dashboard's note on who may sign up ('1'). */
  signupNoticeSeen: 'rehearse.signupNoticeSeen',
  /** The reports list's time range (spec 02 §9: kept as durationIndex, default 0). */
  durationIndex: 'durationIndex',
  /** Report times in the viewer's own zone ('local', the default) or in India time ('ist', the spec's rendering). */
  reportTimeZone: 'rehearse.reportTimeZone',
} as const;
