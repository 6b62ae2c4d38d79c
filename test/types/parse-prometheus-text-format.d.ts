/** Types of parse-prometheus-text-format (it ships none): prom2json's shape, values as strings. */
declare module 'parse-prometheus-text-format' {
  /** One sample (or, for a histogram or summary, one series). */
  export interface PrometheusSample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  /** One metric family. */
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  /** Parses an exposition in the Prometheus text format. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
