/**
 * Reads Scout's operator endpoints over HTTP and parses `/metrics` with a Prometheus text-format parser
 * (parse-prometheus-text-format), so the tests check what a Prometheus server would read.
 */
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { request } from 'undici';
import { expect } from 'vitest';

/** An answer of an endpoint. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Sends `GET` (or `method`) to `path` on 127.0.0.1:`port`. */
export async function call(
  port: number | null,
  path: string,
  method: 'GET' | 'POST' = 'GET',
): Promise<Answer> {
  const res = await request(`http://127.0.0.1:${port}${path}`, { method });
  const type = res.headers['content-type'];
  return { status: res.statusCode, contentType: String(type ?? ''), text: await res.body.text() };
}

/** What `/readyz` answered, parsed. */
export async function readiness(
  port: number | null,
): Promise<{ status: number; ready: boolean; checks: Record<string, string> }> {
  const answer = await call(port, '/readyz');
  expect(answer.contentType).toContain('application/json');
  const body = JSON.parse(answer.text) as { ready: boolean; checks: Record<string, string> };
  return { status: answer.status, ...body };
}

/** A parsed scrape. */
export interface Scrape {
  readonly families: PrometheusFamily[];
  /** The family called `name`, if exposed. */
  family(name: string): PrometheusFamily | undefined;
  /** The value of the sample of a counter or gauge whose labels include `labels`; undefined when there is none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /**
   * How many observations a histogram series (`labels`) holds: its `_count` sample. The parser folds labelled
   * histogram series into one, so the histogram is read with its TYPE line left out, as plain samples.
   */
  observations(histogram: string, labels: Record<string, string>): number | undefined;
}

const matches = (have: Record<string, string> | undefined, want: Record<string, string>) =>
  Object.entries(want).every(([key, value]) => have?.[key] === value);

function sampleValue(families: PrometheusFamily[], name: string, labels: Record<string, string>) {
  // Untyped samples of one name come as several families when other names sit between them.
  const sample = families
    .filter((f) => f.name === name)
    .flatMap((f) => f.metrics)
    .find((m) => matches(m.labels, labels));
  return sample?.value === undefined ? undefined : Number(sample.value);
}

/** Scrapes `/metrics` and parses it. */
export async function scrape(port: number | null): Promise<Scrape> {
  const answer = await call(port, '/metrics');
  expect(answer.status).toBe(200);
  expect(answer.contentType).toContain('text/plain');
  expect(answer.contentType).toContain('version=0.0.4');
  const families = parsePrometheusTextFormat(answer.text);
  return {
    families,
    family: (name) => families.find((f) => f.name === name),
    value: (name, labels = {}) => sampleValue(families, name, labels),
    observations(histogram, labels) {
      const untyped = answer.text
        .split('\n')
        .filter((line) => line !== `# TYPE ${histogram} histogram`)
        .join('\n');
      return sampleValue(parsePrometheusTextFormat(untyped), `${histogram}_count`, labels);
    },
  };
}
