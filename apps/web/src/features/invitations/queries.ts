import { authCalls } from '@rehearse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';
import { projectKeys } from '../projects/queries';

export interface InvitationLink {
  id: string | null;
  invitedBy: string | null;
  project: string | null;
}

/** Query keys of invitations. */
export const invitationKeys = {
  all: ['invitations'] as const,
  verify: (link: InvitationLink) => [...invitationKeys.all, link.id, link.invitedBy, link.project] as const,
};

/**
 * Checks an invitation link; the server answers the spec's 'Invalid invitation,…' messages for
 * missing parts. Never cached across visits: an invitation changes state when used.
 */
export function useVerifyInvitation(link: InvitationLink) {
  return useQuery({
    queryKey: invitationKeys.verify(link),
    queryFn: async () =>
      (
        await api.call(authCalls.verifyInvitation, {
          body: {
            ...(link.id ? { id: link.id } : {}),
            ...(link.invitedBy ? { invited_by: link.invitedBy } : {}),
            ...(link.project ? { project: link.project } : {}),
          },
        })
      ).invitation,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** Accepts: the caller joins the project (and it becomes their active one). */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await api.call(authCalls.addMember, { body: { id } })).project_id,
    onSuccess: async (projectId) => {
      queryClient.setQueryData(projectKeys.lastActive(), projectId);
      await queryClient.invalidateQueries({ queryKey: projectKeys.list() });
      logActivity({ type: 'invitation.accept', detail: { projectId } });
    },
  });
}

export function useDeclineInvitation() {
  return useMutation({
    mutationFn: (id: string) => api.call(authCalls.declineInvitation, { params: { id } }),
    onSuccess: () => logActivity({ type: 'invitation.decline' }),
  });
}
