/**
 * Our sign-in and sign-up page (the spec's hosted login widget). A signed-in user goes on to the
 * callbackUrl, or home (spec 01 §2).
 */
export declare function LoginPage(): import("react").JSX.Element;
