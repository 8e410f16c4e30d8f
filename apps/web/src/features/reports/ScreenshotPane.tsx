import type { Command, ReportStep } from '@rehearse/contract';
import { Strings } from '../../lib/strings';
import { EmptyPane } from './EmptyPane';
import { useScreenshot, type ScreenshotOwner } from './queries';

/** The selected command's screenshot, fetched only while it is shown. */
export function ScreenshotPane({
  owner,
  testCaseId,
  command,
  step,
}: {
  owner: ScreenshotOwner;
  testCaseId: string;
  command: Command | undefined;
  step: ReportStep;
}) {
  const shot = useScreenshot(owner, testCaseId, command?.screenshotId);
  if (!command?.screenshotId) return <EmptyPane>{Strings.emptyScreenshot}</EmptyPane>;
  if (shot.isPending) return <EmptyPane>{Strings.reportScreenshotLoading}</EmptyPane>;
  if (shot.isError) return <EmptyPane>{Strings.emptyScreenshot}</EmptyPane>;
  return (
    <img
      src={shot.data}
      alt={Strings.reportScreenshotAlt(`${step.keyword.trim()} ${step.text}`)}
      data-testid="screenshot"
      className="max-h-[32rem] w-full rounded-lg border border-slate-200 object-contain object-top"
    />
  );
}
