/** Query keys of projects (Actual Budget style key factory). */
export declare const projectKeys: {
    all: readonly ["projects"];
    list: () => readonly ["projects", "list"];
    lastActive: () => readonly ["projects", "last-active"];
};
export declare const projectQueries: {
    /** The caller's projects; the server creates "Default" when there are none (spec 01 §2). */
    list: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<{
        id: string;
        _id: string;
        name: string;
        role: "ADMIN" | "MEMBER";
        url: string | null;
        demo: boolean;
        description: string | null;
        privateRepo: boolean;
        configuredPrivateRepo: boolean;
        privateRepoURL: string | null;
        is_expired: boolean;
        time_left: {
            days: number;
        };
        expiresAt: string;
        projectAdmin: string | null;
        allowInvite: boolean;
        maxExecutionThreads: number;
        createdAt: string;
    }[], Error, {
        id: string;
        _id: string;
        name: string;
        role: "ADMIN" | "MEMBER";
        url: string | null;
        demo: boolean;
        description: string | null;
        privateRepo: boolean;
        configuredPrivateRepo: boolean;
        privateRepoURL: string | null;
        is_expired: boolean;
        time_left: {
            days: number;
        };
        expiresAt: string;
        projectAdmin: string | null;
        allowInvite: boolean;
        maxExecutionThreads: number;
        createdAt: string;
    }[], readonly ["projects", "list"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<{
            id: string;
            _id: string;
            name: string;
            role: "ADMIN" | "MEMBER";
            url: string | null;
            demo: boolean;
            description: string | null;
            privateRepo: boolean;
            configuredPrivateRepo: boolean;
            privateRepoURL: string | null;
            is_expired: boolean;
            time_left: {
                days: number;
            };
            expiresAt: string;
            projectAdmin: string | null;
            allowInvite: boolean;
            maxExecutionThreads: number;
            createdAt: string;
        }[], readonly ["projects", "list"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["projects", "list"], {
        id: string;
        _id: string;
        name: string;
        role: "ADMIN" | "MEMBER";
        url: string | null;
        demo: boolean;
        description: string | null;
        privateRepo: boolean;
        configuredPrivateRepo: boolean;
        privateRepoURL: string | null;
        is_expired: boolean;
        time_left: {
            days: number;
        };
        expiresAt: string;
        projectAdmin: string | null;
        allowInvite: boolean;
        maxExecutionThreads: number;
        createdAt: string;
    }[], Error>;
    lastActive: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<string | null, Error, string | null, readonly ["projects", "last-active"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<string | null, readonly ["projects", "last-active"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["projects", "last-active"], string | null, Error>;
};
export declare function useProjects(): import("@tanstack/react-query").UseQueryResult<{
    id: string;
    _id: string;
    name: string;
    role: "ADMIN" | "MEMBER";
    url: string | null;
    demo: boolean;
    description: string | null;
    privateRepo: boolean;
    configuredPrivateRepo: boolean;
    privateRepoURL: string | null;
    is_expired: boolean;
    time_left: {
        days: number;
    };
    expiresAt: string;
    projectAdmin: string | null;
    allowInvite: boolean;
    maxExecutionThreads: number;
    createdAt: string;
}[], Error>;
/** One project of the list, by id; `undefined` while loading or when the id is not the caller's. */
export declare function useProject(projectId: string | undefined): import("@tanstack/react-query").UseQueryResult<{
    id: string;
    _id: string;
    name: string;
    role: "ADMIN" | "MEMBER";
    url: string | null;
    demo: boolean;
    description: string | null;
    privateRepo: boolean;
    configuredPrivateRepo: boolean;
    privateRepoURL: string | null;
    is_expired: boolean;
    time_left: {
        days: number;
    };
    expiresAt: string;
    projectAdmin: string | null;
    allowInvite: boolean;
    maxExecutionThreads: number;
    createdAt: string;
} | undefined, Error>;
export declare function useLastActiveProject(): import("@tanstack/react-query").UseQueryResult<string | null, Error>;
/** Saves a project as the active one (spec 01 §4: selecting a project saves it as active). */
export declare function useSelectProject(): import("@tanstack/react-query").UseMutationResult<{
    status: true;
}, Error, string, unknown>;
