import { Messages, type Project } from '@rehearse/contract';
import { format } from 'date-fns';
import { CalendarClock, CalendarX2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { Strings } from '../../../lib/strings';
import { useMe } from '../../auth/queries';
import { licenceView } from '../../projects/licence';

/** The licence modal (spec 01 §4): its title says expired, one day or n days remaining. */
export function LicenceDialog({
  open,
  onOpenChange,
  project,
  onContactSales,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project: Project;
  onContactSales: () => void;
}) {
  const licence = licenceView(project);
  // An instance administrator is told where to extend it, instead of whom to ask.
  const isInstanceAdmin = useMe().data?.instanceAdmin === true;
  const navigate = useNavigate();
  const Icon = licence.expired ? CalendarX2 : CalendarClock;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      testId="licence-dialog"
      title={licence.title}
      description={
        licence.expired
          ? Messages.licenceExpired
          : Strings.licenceRemainingText(licence.daysShown, format(new Date(project.expiresAt), 'MMM dd, yyyy'))
      }
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {Strings.close}
          </Button>
          <Button variant={isInstanceAdmin ? 'secondary' : 'primary'} onClick={onContactSales}>
            {Strings.contactSales}
          </Button>
          {isInstanceAdmin && (
            <Button
              onClick={() => {
                onOpenChange(false);
                void navigate(`/admin/projects?extend=${project.id}`);
              }}
            >
              {Strings.licenseAdminExtend}
            </Button>
          )}
        </>
      }
    >
      <div
        className={`flex items-start gap-3 rounded-xl p-4 text-sm ${
          licence.warning ? 'bg-orange-50 text-orange-800' : 'bg-brand-50 text-brand-900'
        }`}
      >
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <p>{licence.expired ? Strings.licenceExpiredText : Strings.licenceDaysLeft(licence.daysShown)}</p>
      </div>
      {isInstanceAdmin && (
        <p className="mt-4 text-sm text-slate-700" data-testid="licence-admin-hint">
          {Strings.licenseAdminHint}
        </p>
      )}
    </Modal>
  );
}
