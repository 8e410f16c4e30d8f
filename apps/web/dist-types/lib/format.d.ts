/**
 * Cuts `text` to `keep` characters plus an ellipsis when it is longer than `max` (spec 01 §9:
 * user name 18 → 15, email 21 → 18, menu titles 37, project labels 8 → 7).
 */
export declare function truncate(text: string, max: number, keep?: number): string;
export declare const TruncateAt: {
    readonly userName: readonly [18, 15];
    readonly email: readonly [21, 18];
    readonly menuTitle: readonly [37, 37];
    readonly selectorLabel: readonly [8, 7];
};
/** Only same-app paths may be a callbackUrl; anything else (another origin, `//host`) goes home. */
export declare function safeCallbackUrl(value: string | null): string;
