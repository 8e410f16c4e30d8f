import { WEEK_DAYS, type Schedule } from '@rehearse/contract';
import { useId, useMemo } from 'react';
import { Strings } from '../../lib/strings';
import {
  REPEAT_OPTIONS,
  repeatOf,
  SCHEDULE_TIMES,
  withDay,
  withRepeat,
  withZone,
  zoneChoiceOf,
  zoneChoices,
  type Repeat,
} from './schedule';

const selectClass =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-xs outline-none hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200';

/** Repeat, days, time (15-minute steps) and time zone of an execution's schedule (spec 02 §4, §9). */
export function ScheduleEditor({ value, onChange }: { value: Schedule; onChange: (schedule: Schedule) => void }) {
  const ids = { repeat: useId(), time: useId(), zone: useId() };
  const repeat = repeatOf(value);
  const zones = useMemo(() => zoneChoices(value), [value]);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-3 gap-3">
        <div>
          <label htmlFor={ids.repeat} className="mb-1 block text-sm font-medium text-slate-800">
            {Strings.execRepeat}
          </label>
          <select
            id={ids.repeat}
            className={selectClass}
            value={repeat}
            onChange={(e) => onChange(withRepeat(value, e.target.value as Repeat))}
          >
            {REPEAT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.time} className="mb-1 block text-sm font-medium text-slate-800">
            {Strings.execTime}
          </label>
          <select id={ids.time} className={selectClass} value={value.time} onChange={(e) => onChange({ ...value, time: e.target.value })}>
            {SCHEDULE_TIMES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.zone} className="mb-1 block text-sm font-medium text-slate-800">
            {Strings.execTimeZone}
          </label>
          <select
            id={ids.zone}
            className={selectClass}
            value={zoneChoiceOf(value)}
            onChange={(e) => onChange(withZone(value, e.target.value))}
          >
            {zones.map((zone) => (
              <option key={zone.value} value={zone.value}>
                {zone.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-800">{Strings.execDays}</legend>
        <div className="flex gap-1.5">
          {WEEK_DAYS.map((day) => {
            const on = value.days.includes(day);
            return (
              <button
                key={day}
                type="button"
                aria-pressed={on}
                onClick={() => onChange(withDay(value, day))}
                className={`focus-ring h-9 w-12 rounded-lg border text-sm font-medium ${on ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'}`}
              >
                {day}
              </button>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}
