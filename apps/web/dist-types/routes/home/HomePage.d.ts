/**
 * Home: loads the projects (the server creates "Default" for a user without any), then goes to
 * the last active project's dashboard, else the first project's (spec 01 §2).
 */
export declare function HomePage(): import("react").JSX.Element;
