import type { Command } from '@rehearse/contract';
import { Strings } from '../../lib/strings';

/** What self-healing did for a command: healed or not, why, how sure, and what it weighed. */
export function HealingDetail({ healing }: { healing: NonNullable<Command['healing']> }) {
  // A locator candidate as a person reads it: its kind, then what it looks for.
  const describe = (candidate: Record<string, unknown>) => {
    const { kind, role, name, value } = candidate as { kind?: string; role?: string; name?: string; value?: string };
    if (kind === 'role') return `role ${role ?? ''}${name === undefined ? '' : ` “${name}”`}`;
    if (kind === 'css') return `css ${value ?? ''}`;
    return `${kind === 'testId' ? 'test id' : kind === 'altText' ? 'alt text' : (kind ?? '')} “${value ?? ''}”`;
  };
  return (
    <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-2">
      <dt className="font-semibold text-slate-700">{Strings.reportHealingOutcome}</dt>
      <dd className={healing.healed ? 'text-violet-800' : 'text-red-800'}>
        {healing.healed ? Strings.reportHealingHealed : Strings.reportHealingNotHealed}
      </dd>
      <dt className="font-semibold text-slate-700">{Strings.reportHealingReason}</dt>
      <dd>{healing.reason}</dd>
      <dt className="font-semibold text-slate-700">{Strings.reportHealingConfidence}</dt>
      <dd className="font-mono text-xs">{healing.confidence.toFixed(3)}</dd>
      <dt className="font-semibold text-slate-700">{Strings.reportHealingElement}</dt>
      <dd>
        {healing.element}
        {healing.source && (
          <span className="block font-mono text-xs break-all text-slate-500">{`${healing.source.file} › ${healing.source.key}`}</span>
        )}
      </dd>
      <dt className="font-semibold text-slate-700">{Strings.reportHealingFailure}</dt>
      <dd>{Strings.reportHealingFailureKinds[healing.classification] ?? healing.classification}</dd>
      {healing.considered && healing.considered.length > 0 && (
        <>
          <dt className="font-semibold text-slate-700">{Strings.reportHealingConsidered}</dt>
          <dd>
            <ol className="flex list-decimal flex-col gap-1 pl-5">
              {healing.considered.map((candidate, i) => (
                <li key={i}>
                  {candidate.element} <span className="font-mono text-xs text-slate-500">{candidate.confidence.toFixed(3)}</span>
                </li>
              ))}
            </ol>
          </dd>
        </>
      )}
      {healing.locators && healing.locators.length > 0 && (
        <>
          <dt className="font-semibold text-slate-700">{Strings.reportHealingLocators}</dt>
          <dd>
            <ul className="flex flex-col gap-1 font-mono text-xs break-all">
              {healing.locators.map((candidate, i) => (
                <li key={i}>{describe(candidate)}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}
