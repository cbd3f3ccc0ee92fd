/**
 * The metric and label names a PromQL expression reads, for the tests that check docs/prometheus/
 * and docs/grafana/ against what `longhaul schedule --metrics` serves. Prometheus itself answers
 * whether an expression parses; it does not say which names it reads (2.42 has no parse_query),
 * hence this small lexer: strings, label matchers, ranges, grouping clauses and Grafana's
 * `$variables` go first; of the identifiers left, those called like functions, the keywords and
 * the numbers are not metrics.
 */
import { ScheduleMetrics } from '../../electron/schedule/schedule-metrics.js';

const KEYWORDS = new Set(['and', 'or', 'unless', 'offset', 'bool', 'inf', 'nan']);
const STRINGS = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g;

/** Every metric name `expr` selects, in order of first use. */
export function promqlMetricNames(expr: string): string[] {
  const bare = expr
    .replace(STRINGS, '""')
    .replace(/\$\{[^}]*\}|\$\w+/g, '')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\b(?:group_left|group_right)\b/g, ' ');
  const names: string[] = [];
  // A number (1e6, 0.5, 1h) is consumed whole, so its letters are never read as a name.
  for (const m of bare.matchAll(/\d[\w.]*(?:[eE][+-]\d+)?|([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    const [, name, call] = m;
    if (!name || call || KEYWORDS.has(name.toLowerCase())) continue;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Each `metric{…}` selector of `expr`: the metric and the label names its matchers test. */
function promqlSelectors(expr: string): { metric: string; labels: string[] }[] {
  const noStrings = expr.replace(STRINGS, '""');
  return [...noStrings.matchAll(/([A-Za-z_:][A-Za-z0-9_:]*)\s*\{([^}]*)\}/g)].map(([, metric, inner]) => ({
    metric: metric!,
    labels: [...inner!.matchAll(/([A-Za-z_]\w*)\s*(?:=~|!~|!=|=)/g)].map((l) => l[1]!),
  }));
}

/** The metrics a schedule's `/metrics` serves (those ScheduleMetrics registers), each with its label names. */
export function scheduleMetricLabels(): Map<string, Set<string>> {
  return new Map(
    new ScheduleMetrics().registry.getMetricsAsArray().map((m) => {
      // prom-client keeps each metric's label names on the object, not in its declared type.
      const labels = (m as unknown as { labelNames: unknown }).labelNames;
      if (!Array.isArray(labels)) throw new Error(`prom-client's ${m.name} has no labelNames array`);
      return [m.name, new Set(labels as string[])];
    }),
  );
}

/** An expression to check, and where it is (a rule's or a panel's name). */
interface NamedExpr {
  where: string;
  expr: string;
}

/**
 * What `exprs` read that does not exist: a metric neither `served` nor in `known` (recording rules,
 * Prometheus's own `up`), or a label a served metric does not have. Empty when every name is real.
 */
export function unknownNames(exprs: NamedExpr[], served: Map<string, Set<string>>, known: Set<string>): string[] {
  return exprs.flatMap(({ where, expr }) => [
    ...promqlMetricNames(expr)
      .filter((n) => !served.has(n) && !known.has(n))
      .map((n) => `${where}: no metric ${n}`),
    ...promqlSelectors(expr).flatMap(({ metric, labels }) =>
      labels.filter((l) => served.has(metric) && !served.get(metric)!.has(l)).map((l) => `${where}: ${metric} has no label ${l}`),
    ),
  ]);
}
