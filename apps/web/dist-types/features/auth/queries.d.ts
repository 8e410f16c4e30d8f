import { authCalls, type CallInput } from '@rehearse/contract';
/** Query keys of the signed-in user. */
export declare const authKeys: {
    all: readonly ["auth"];
    me: () => readonly ["auth", "me"];
};
export declare const authQueries: {
    me: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<{
        userId: string;
        name: string;
        givenName: string;
        familyName: string;
        email: string;
        country: string | null;
        phone: string | null;
        customAttributes: {
            allowedProjectsCount: number;
            companyName: string | null;
            allowDeleteProjects: boolean;
        };
    }, Error, {
        userId: string;
        name: string;
        givenName: string;
        familyName: string;
        email: string;
        country: string | null;
        phone: string | null;
        customAttributes: {
            allowedProjectsCount: number;
            companyName: string | null;
            allowDeleteProjects: boolean;
        };
    }, readonly ["auth", "me"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<{
            userId: string;
            name: string;
            givenName: string;
            familyName: string;
            email: string;
            country: string | null;
            phone: string | null;
            customAttributes: {
                allowedProjectsCount: number;
                companyName: string | null;
                allowDeleteProjects: boolean;
            };
        }, readonly ["auth", "me"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["auth", "me"], {
        userId: string;
        name: string;
        givenName: string;
        familyName: string;
        email: string;
        country: string | null;
        phone: string | null;
        customAttributes: {
            allowedProjectsCount: number;
            companyName: string | null;
            allowDeleteProjects: boolean;
        };
    }, Error>;
};
/** The signed-in user (name for the user menu, remaining project count, ...). */
export declare function useMe(): import("@tanstack/react-query").UseQueryResult<{
    userId: string;
    name: string;
    givenName: string;
    familyName: string;
    email: string;
    country: string | null;
    phone: string | null;
    customAttributes: {
        allowedProjectsCount: number;
        companyName: string | null;
        allowDeleteProjects: boolean;
    };
}, Error>;
export type LoginBody = CallInput<typeof authCalls.login>['body'];
export type SignupBody = CallInput<typeof authCalls.signup>['body'];
/** Signs in; on success the previous user's cache is dropped and the new token stored. */
export declare function useLogin(): import("@tanstack/react-query").UseMutationResult<{
    status: true;
    token: string;
}, Error, {
    email: string;
    password: string;
}, unknown>;
/** Creates the account (and, on the server, its Default project) and signs in. */
export declare function useSignup(): import("@tanstack/react-query").UseMutationResult<{
    status: true;
    token: string;
    isNewUser: boolean;
    project: {
        _id: string;
    };
}, Error, {
    email: string;
    password: string;
    firstname: string;
    lastname: string;
    companyName?: string | undefined;
    country?: string | undefined;
    phone?: string | undefined;
}, unknown>;
/**
 * Ends the session on the server, then forgets it here whatever the server said: a user who asks
 * to log out is logged out on this device even when the server cannot be reached.
 */
export declare function useLogout(): import("@tanstack/react-query").UseMutationResult<void, Error, void, unknown>;
