/** The header's user menu: who is signed in, Get Started (onboarding) and Logout. */
export declare function UserMenu(): import("react").JSX.Element;
