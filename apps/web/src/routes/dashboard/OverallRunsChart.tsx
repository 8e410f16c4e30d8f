import { Cell, Pie, PieChart, ResponsiveContainer } from 'recharts';
import type { RunTotals } from '../../features/dashboard/queries';

const PASSED = '#10b981';
const FAILED = '#ef4444';
const EMPTY = '#e2e8f0';

/**
 * The Overall runs semicircle (spec 01 §2): passed against failed. Without runs it draws an
 * empty grey track, never made-up numbers. Loaded on its own (recharts is large).
 */
export default function OverallRunsChart({ totals }: { totals: RunTotals | null }) {
  const total = totals ? totals.passed + totals.failed : 0;
  const data =
    totals && total > 0
      ? [
          { name: 'passed', value: totals.passed, fill: PASSED },
          { name: 'failed', value: totals.failed, fill: FAILED },
        ]
      : [{ name: 'none', value: 1, fill: EMPTY }];
  // Sized by its card: 240 × 130 at most, smaller in a narrow card. Radii are relative to half
  // the shorter side, so 169% and 120% give a 110 px and 78 px ring at full size.
  return (
    <ResponsiveContainer width="100%" aspect={240 / 130}>
      <PieChart accessibilityLayer={false} tabIndex={-1} aria-hidden="true">
        <Pie
          data={data}
          dataKey="value"
          cx="50%"
          cy="92%"
          startAngle={180}
          endAngle={0}
          innerRadius="120%"
          outerRadius="169%"
          stroke="none"
          isAnimationActive={false}
          rootTabIndex={-1}
        >
          {data.map((entry) => (
            <Cell key={entry.name} fill={entry.fill} />
          ))}
        </Pie>
      </PieChart>
    </ResponsiveContainer>
  );
}
