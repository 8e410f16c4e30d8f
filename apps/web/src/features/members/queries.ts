import { authCalls, type Member, type ProjectAction } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';

/** Query keys of members, invitations and role checks. */
export const memberKeys = {
  all: ['members'] as const,
  list: (projectId: string) => [...memberKeys.all, projectId] as const,
  role: (projectId: string, action: ProjectAction) => ['role', projectId, action] as const,
};

export const memberQueries = {
  list: (projectId: string) =>
    queryOptions({
      queryKey: memberKeys.list(projectId),
      queryFn: async () => (await api.call(authCalls.getMembers, { query: { project_id: projectId } })).members,
    }),
  /** Whether the caller may do `action` in the project (spec 01 §6: checkRole). */
  role: (projectId: string, action: ProjectAction) =>
    queryOptions({
      queryKey: memberKeys.role(projectId, action),
      queryFn: async () => (await api.call(authCalls.checkRole, { body: { project_id: projectId, action } })).allowed,
    }),
};

export function useMembers(projectId: string) {
  return useQuery(memberQueries.list(projectId));
}

export function useRoleCheck(projectId: string, action: ProjectAction) {
  return useQuery(memberQueries.role(projectId, action));
}

/** Sends invitations; answers one copyable link per invitation. */
export function useInvite(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (emails: string[]) =>
      (await api.call(authCalls.createInvitation, { body: { project_id: projectId, sent_to_email_list: emails } })).invitations,
    onSuccess: (invitations) => {
      void queryClient.invalidateQueries({ queryKey: memberKeys.list(projectId) });
      logActivity({ type: 'members.invite', detail: { count: invitations.length } });
    },
  });
}

/** Removes a member, or withdraws a pending invitation. */
export function useRemoveMember(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: Member) =>
      api.call(authCalls.removeMemberOrInvitation, {
        body:
          member.status === 'active'
            ? { project_id: projectId, status: 'active', user_id_to_remove: member.user_id, user_email_to_remove: member.user_email }
            : { project_id: projectId, status: 'pending', user_email_to_remove: member.user_email },
      }),
    onSuccess: (_answer, member) => {
      queryClient.setQueryData<Member[]>(memberKeys.list(projectId), (members) =>
        members?.filter((m) => !(m.user_id === member.user_id && m.status === member.status)),
      );
      void queryClient.invalidateQueries({ queryKey: memberKeys.list(projectId) });
      logActivity({ type: 'members.remove', detail: { status: member.status } });
    },
  });
}
