/**
 * A strict reader of the Prometheus text exposition format 0.0.4, written from the format's
 * specification for tests (the npm parsers at hand lose a histogram's labels when `le` is not the
 * last label, as prom-client writes it). It throws on anything a Prometheus server would refuse:
 * a malformed line, a sample before or outside its family's TYPE, a family split in two, a
 * duplicate series, a histogram whose buckets decrease or whose +Inf bucket is not its count.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: MetricType;
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<MetricType, string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseValue(text: string, line: string): number {
  // As Prometheus reads them (Go's ParseFloat): Inf and NaN in any case (prom-client writes `Nan`).
  if (/^\+?inf(inity)?$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value "${text}" in: ${line}`);
  return Number(text);
}

/** Reads `{a="x",b="y"}` from `text` at `start` (the `{`); answers the labels and the index after `}`. */
function parseLabels(text: string, start: number, line: string): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`unterminated labels in: ${line}`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name) || name in labels) throw new Error(`bad or repeated label "${name}" in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[j + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
        j++;
      } else {
        value += text[j];
      }
    }
    if (text[j] !== '"') throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`expected , or } in: ${line}`);
  }
}

/** Parses a whole exposition; throws with the offending line on any violation. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seriesSeen = new Set<string>();
  let current: Family | undefined;
  const finished = new Set<string>();
  const family = (name: string): Family => {
    if (finished.has(name)) throw new Error(`family ${name} appears twice`);
    let found = families.get(name);
    if (!found) {
      found = { name, type: 'untyped', help: '', samples: [] };
      families.set(name, found);
    }
    if (current && current !== found) finished.add(current.name);
    current = found;
    return found;
  };

  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) continue; // a plain comment
      const [, keyword, name = '', rest = ''] = match;
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const target = family(name);
      if (keyword === 'TYPE') {
        if (!TYPES.has(rest as MetricType) || target.samples.length > 0) throw new Error(`bad or late TYPE in: ${line}`);
        target.type = rest as MetricType;
      } else {
        target.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      }
      continue;
    }
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (!nameMatch) throw new Error(`bad sample line: ${line}`);
    const sampleName = nameMatch[0];
    let rest = line.slice(sampleName.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      const parsed = parseLabels(line, sampleName.length, line);
      labels = parsed.labels;
      rest = line.slice(parsed.end);
    }
    const fields = rest.trim().split(/\s+/);
    if (!rest.startsWith(' ') || fields.length < 1 || fields.length > 2) throw new Error(`bad sample line: ${line}`);
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`bad timestamp in: ${line}`);
    const value = parseValue(fields[0] ?? '', line);
    const owner = current && SUFFIXES[current.type].some((suffix) => `${current!.name}${suffix}` === sampleName) ? current : undefined;
    const target = owner ?? family(sampleName);
    if (!owner && target.type !== 'untyped') throw new Error(`sample ${sampleName} outside its family: ${line}`);
    const key = `${sampleName}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seriesSeen.has(key)) throw new Error(`duplicate series: ${line}`);
    seriesSeen.add(key);
    target.samples.push({ name: sampleName, labels, value });
  }

  for (const found of families.values()) if (found.type === 'histogram') checkHistogram(found);
  return families;
}

function checkHistogram(histogram: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number; sum?: number }>();
  for (const sample of histogram.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${histogram.name}: a bucket without le`);
      entry.buckets.push([parseValue(le, le), sample.value]);
    } else if (sample.name.endsWith('_count')) entry.count = sample.value;
    else entry.sum = sample.value;
  }
  for (const [key, entry] of series) {
    const buckets = entry.buckets.sort((a, b) => a[0] - b[0]);
    const last = buckets.at(-1);
    if (!last || last[0] !== Number.POSITIVE_INFINITY) throw new Error(`${histogram.name}${key}: no +Inf bucket`);
    if (entry.count !== last[1] || entry.sum === undefined)
      throw new Error(`${histogram.name}${key}: _count is not the +Inf bucket, or no _sum`);
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i]![1] < buckets[i - 1]![1]) throw new Error(`${histogram.name}${key}: buckets decrease`);
    }
  }
}
