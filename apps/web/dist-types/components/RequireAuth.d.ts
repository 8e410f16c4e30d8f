/** Guards signed-in routes: without a token the user goes to /login?callbackUrl=<here> (spec 01 §2). */
export declare function RequireAuth(): import("react").JSX.Element;
