/**
 * Opens on any 401 of a signed-in call (spec 01 §4). It cannot be dismissed: Reload forgets the
 * dead token and reloads, which lands on the sign-in page with a callbackUrl back here.
 */
export declare function SessionExpiredDialog(): import("react").JSX.Element;
