/** The kinds of quantity a value axis can show, each with its own sensible range. */
export type AxisQuantity = 'voltage' | 'current' | 'power' | 'temperature' | 'leakage';

export interface AxisRange {
  min: number;
  max: number;
}

/** The smallest round number (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10ⁿ) at or above `value` (value > 0). */
export function niceCeil(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((s) => s * power >= value * (1 - 1e-9)) ?? 10;
  return step * power;
}

/** Ranges for an axis with no reading, and the least top of an axis from 0 (all-zero readings still draw a scale). */
const EMPTY: Record<AxisQuantity, AxisRange> = {
  voltage: { min: 200, max: 240 },
  current: { min: 0, max: 1 },
  power: { min: 0, max: 100 },
  temperature: { min: 0, max: 60 },
  leakage: { min: 0, max: 30 },
};

/** A voltage axis spans at least this many volts, so a few tenths of noise stay a flat line. */
const VOLTAGE_MIN_SPAN = 40;

/**
 * The y-axis range for `values` of one quantity: voltage from 10 % under the lowest to 10 % over the
 * highest reading, at least 40 V wide; current, power and leakage from 0 to a round number over the
 * highest; temperature from 0 (or lower, below freezing) to at least 60 °C.
 */
export function axisRange(quantity: AxisQuantity, values: readonly (number | null | undefined)[]): AxisRange {
  const readings = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (readings.length === 0) return EMPTY[quantity];
  const low = Math.min(...readings);
  const high = Math.max(...readings);
  switch (quantity) {
    case 'voltage': {
      let min = Math.floor((low * 0.9) / 10) * 10;
      let max = Math.ceil((high * 1.1) / 10) * 10;
      const missing = VOLTAGE_MIN_SPAN - (max - min);
      if (missing > 0) {
        min -= Math.ceil(missing / 20) * 10;
        max += Math.ceil(missing / 20) * 10;
      }
      return { min: Math.max(0, min), max };
    }
    case 'temperature':
      return {
        min: low < 0 ? -niceCeil(-low * 1.2) : 0,
        max: Math.max(EMPTY.temperature.max, Math.ceil((high + 10) / 10) * 10),
      };
    default: {
      // Current, power and leakage start from 0; a negative power (fed back) takes the axis below it.
      const top = Math.max(EMPTY[quantity].max, high > 0 ? niceCeil(high * 1.1) : 0);
      return { min: low < 0 ? -niceCeil(-low * 1.1) : 0, max: top };
    }
  }
}
