import type { Project } from '@rehearse/contract';
import { Send } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { TextField } from '../../../components/TextField';
import { logActivity } from '../../../lib/activity-log';
import { Strings } from '../../../lib/strings';
import { useMe } from '../../auth/queries';
import { salesLink } from '../contact-sales';

/** Our contact-sales form, prefilled with the user's details and the project id (spec 01 §2). */
export function ContactSalesDialog({
  open,
  onOpenChange,
  project,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project: Pick<Project, 'id' | 'name'>;
}) {
  const me = useMe();
  const messageId = useId();
  const [fields, setFields] = useState({ name: '', email: '', company: '', message: Strings.contactSalesDefaultMessage });

  useEffect(() => {
    if (!open || !me.data) return;
    setFields({
      name: me.data.name,
      email: me.data.email,
      company: me.data.customAttributes.companyName ?? '',
      message: Strings.contactSalesDefaultMessage,
    });
  }, [open, me.data]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const [firstname = '', ...rest] = fields.name.trim().split(/\s+/);
    const href = salesLink({
      firstname,
      lastname: rest.join(' '),
      email: fields.email.trim(),
      company: fields.company.trim(),
      projectId: project.id,
      projectName: project.name,
      message: fields.message.trim(),
    });
    logActivity({ type: 'licence.contactSales', detail: { projectId: project.id } });
    window.open(href, '_blank', 'noopener,noreferrer');
    onOpenChange(false);
  };

  const set = (key: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [key]: event.target.value }));

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={Strings.contactSalesTitle}
      description={Strings.contactSalesIntro}
      testId="contact-sales-dialog"
    >
      <form onSubmit={submit} className="flex flex-col gap-4" aria-label={Strings.contactSalesTitle}>
        <div className="grid grid-cols-2 gap-3">
          <TextField label={Strings.contactSalesName} name="name" value={fields.name} onChange={set('name')} autoComplete="name" />
          <TextField
            label={Strings.contactSalesCompany}
            name="company"
            value={fields.company}
            onChange={set('company')}
            autoComplete="organization"
          />
        </div>
        <TextField
          label={Strings.contactSalesEmail}
          name="email"
          type="email"
          value={fields.email}
          onChange={set('email')}
          autoComplete="email"
        />
        <TextField label={Strings.contactSalesProject} name="project_id" value={project.id} readOnly />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={messageId} className="text-sm font-medium text-slate-700">
            {Strings.contactSalesMessage}
          </label>
          <textarea
            id={messageId}
            name="message"
            rows={3}
            value={fields.message}
            onChange={set('message')}
            className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-xs outline-none hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
          />
        </div>
        <div className="flex justify-end gap-3 pt-1">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {Strings.cancel}
          </Button>
          <Button type="submit">
            <Send aria-hidden="true" className="size-4" />
            {Strings.contactSalesSend}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
