/** The top header: logo (home link) and the user menu (spec 01 §2). */
export declare function Header(): import("react").JSX.Element;
