// Home's 30-day volume chart, its own chunk (uPlot and its stylesheet load only when Home does, so
// the sign-in and payments pages stay small). Amounts are plotted as integer minor units and every
// label is formatted from them (formatMinor): the chart never divides an amount.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatMinor } from "../format/money.ts";

export interface VolumeChartProps {
  currency: string;
  days: readonly { date: string; amount: string; count: number }[];
  /** The chart's name for assistive technology (the data is in a table beside it). */
  label: string;
  amountLabel: string;
  countLabel: string;
  /** Formats a day (YYYY-MM-DD) for the axis. */
  dayLabel: (date: string) => string;
}

const HEIGHT = 220;

/** A minor-unit amount as a plotted value: exact while it is a safe integer (any real day's volume is). */
function plotted(minor: string): number {
  const value = Number(minor);
  return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER;
}

export default function VolumeChart({ currency, days, label, amountLabel, countLabel, dayLabel }: VolumeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = box.current;
    if (!target) return;
    // Days as UTC midnights, shown in UTC: the labels are the merchant's calendar days as the core counted them.
    const xs = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width: Math.max(target.clientWidth, 240),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "UTC"),
        scales: {
          x: { time: true },
          amount: { range: (_u, _min, max) => [0, Math.max(max, 100)] },
          count: { range: (_u, _min, max) => [0, Math.max(max, 1)] },
        },
        series: [
          {},
          { label: amountLabel, scale: "amount", stroke: "#0b5cad", width: 2, fill: "rgba(11, 92, 173, 0.12)" },
          { label: countLabel, scale: "count", stroke: "#8a4b00", width: 1.5, dash: [4, 4] },
        ],
        axes: [
          {
            values: (_u, splits) => splits.map((s) => dayLabel(new Date(s * 1000).toISOString().slice(0, 10))),
            space: 70,
          },
          { scale: "amount", values: (_u, splits) => splits.map((s) => formatMinor(Math.round(s), currency)), size: 90 },
          { scale: "count", side: 1, values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? String(s) : "")), grid: { show: false } },
        ],
      },
      [xs, days.map((d) => plotted(d.amount)), days.map((d) => d.count)],
      target,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(target.clientWidth, 240), height: HEIGHT }));
    resize.observe(target);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [currency, days, amountLabel, countLabel, dayLabel]);
  return <div className="volume-chart" ref={box} role="img" aria-label={label} data-testid={`volume-chart-${currency}`} />;
}
