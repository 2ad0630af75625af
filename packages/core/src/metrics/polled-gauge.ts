import { type Logger, pino } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { UnregisterMetric } from '../queue/workqueue-metrics.js';

/** Reads the current value of one series of a {@link PolledGauge}. */
export type GaugeReader = () => number;

/** How a {@link PolledGauge} is built. */
export interface PolledGaugeOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Where failing readers are reported (warn level). Default: a silent pino logger. */
  logger?: Logger;
}

interface Series<L extends string> {
  readonly labels: Readonly<Record<L, string>>;
  readonly read: GaugeReader;
}

/**
 * A gauge whose values are not pushed but read when the registry is collected (a scrape):
 * each label set is registered with a {@link GaugeReader}, called once per collection. This
 * is how values that are cheap to compute on demand but costly to keep up to date (the age of
 * in-flight work, the size of a cache) are exported.
 *
 * Guarantees: every collection shows exactly the label sets registered at that moment, with
 * the value their reader returns; unregistered sets disappear from the output. A reader that
 * throws or returns a non-finite number is skipped for that collection (logged at warn
 * level), so it never breaks the scrape. Registering a label set again replaces the reader;
 * the {@link UnregisterMetric} of the replaced registration then does nothing.
 *
 * Assumes: readers are fast and synchronous; they run on the scrape's request path.
 */
export class PolledGauge<L extends string = string> {
  readonly name: string;
  readonly labelNames: readonly L[];
  readonly #series = new Map<string, Series<L>>();
  readonly #logger: Logger;

  constructor(registry: Registry, options: PolledGaugeOptions<L>) {
    this.name = options.name;
    this.labelNames = [...options.labelNames];
    this.#logger = options.logger ?? pino({ level: 'silent' });
    const series = this.#series;
    const logger = this.#logger;
    const name = this.name;
    new Gauge<L>({
      name: options.name,
      help: options.help,
      labelNames: this.labelNames,
      registers: [registry],
      collect(this: Gauge<L>) {
        this.reset();
        for (const { labels, read } of series.values()) {
          let value: number;
          try {
            value = read();
          } catch (error) {
            logger.warn(
              { err: error, metric: name, labels },
              'gauge reader failed; series skipped',
            );
            continue;
          }
          if (!Number.isFinite(value)) {
            logger.warn(
              { metric: name, labels, value },
              'gauge reader returned a non-finite value',
            );
            continue;
          }
          this.set(labels as Partial<Record<L, string>>, value);
        }
      },
    });
  }

  /**
   * Registers `read` as the source of the series with these `labels` (every label name of the
   * gauge must be given). Returns the function that removes the series again.
   */
  register(labels: Readonly<Record<L, string>>, read: GaugeReader): UnregisterMetric {
    const key = JSON.stringify(this.labelNames.map((labelName) => labels[labelName]));
    const entry: Series<L> = { labels: { ...labels }, read };
    this.#series.set(key, entry);
    return () => {
      if (this.#series.get(key) === entry) this.#series.delete(key);
    };
  }

  /** How many series are registered. */
  get size(): number {
    return this.#series.size;
  }
}
