import { ProjectServerEventSchemas } from '@rehearse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { appSocket, checked } from '../../lib/socket';
import { dashboardKeys } from '../dashboard/queries';
import { reportKeys } from '../reports/queries';

/**
 * When the features count is read again after `publish_scenario` (spec 01 §4: at 10 s and 60 s),
 * counted from the event: the workspace may still be settling when it arrives.
 */
export const FEATURES_REFRESH_AFTER_PUBLISH_MS = [10_000, 60_000] as const;

/**
 * Joins the project's socket room while a project screen is open (again after every reconnect)
 * and keeps its screens current: `upload_report` refreshes the dashboard's run figures and the
 * reports list, `publish_scenario` the features count (spec 01 §4 "Publish events").
 */
export function useProjectEvents(projectId: string | undefined): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!projectId) return;
    const socket = appSocket();
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const join = () => socket.emit('joinProject', { projectId }, () => undefined);
    const onUpload = checked(ProjectServerEventSchemas.upload_report, (payload) => {
      if (payload.projectId !== projectId) return;
      void client.invalidateQueries({ queryKey: dashboardKeys.runsDetails(projectId) });
      void client.invalidateQueries({ queryKey: dashboardKeys.latestRuns(projectId) });
      void client.invalidateQueries({ queryKey: reportKeys.listsOf(projectId) });
      void client.invalidateQueries({ queryKey: reportKeys.anyOf(projectId) });
    });
    const onPublish = checked(ProjectServerEventSchemas.publish_scenario, (payload) => {
      if (payload.projectId !== projectId) return;
      for (const delay of FEATURES_REFRESH_AFTER_PUBLISH_MS) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void client.invalidateQueries({ queryKey: dashboardKeys.featuresCountsOf(projectId) });
        }, delay);
        timers.add(timer);
      }
    });
    socket.on('connect', join);
    socket.on('upload_report', onUpload);
    socket.on('publish_scenario', onPublish);
    if (socket.connected) join();
    return () => {
      for (const timer of timers) clearTimeout(timer);
      socket.off('connect', join);
      socket.off('upload_report', onUpload);
      socket.off('publish_scenario', onPublish);
      socket.emit('leaveProject', { projectId }, () => undefined);
    };
  }, [projectId, client]);
}
