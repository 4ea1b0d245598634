"use client";

import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "react";
import type { AuditVolume } from "@/server/gateway/console/list-audit-events";

/**
 * Operations and errors over the monitor's range: uPlot (canvas, small, no dependencies), loaded
 * in the browser only. The chart is described in words for screen readers (the figures are the
 * totals); the rows below carry the details.
 */
export function VolumeChart({ data }: { data: AuditVolume }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: { destroy(): void; setSize(s: { width: number; height: number }): void } | null = null;
    let cancelled = false;
    const css = getComputedStyle(el);
    const text = css.color;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      const xs = data.buckets.map((b) => b.at / 1000);
      plot = new UPlot(
        {
          width: el.clientWidth || 300,
          height: 140,
          legend: { show: false },
          cursor: { show: true, drag: { x: false, y: false } },
          scales: { x: { time: true } },
          axes: [
            { stroke: text, grid: { stroke: "rgba(128,128,128,0.15)" }, ticks: { show: false } },
            { stroke: text, grid: { stroke: "rgba(128,128,128,0.15)" }, size: 40 },
          ],
          series: [
            {},
            { label: "operations", stroke: "#0284c7", fill: "rgba(2,132,199,0.15)", width: 1.5 },
            { label: "errors", stroke: "#dc2626", fill: "rgba(220,38,38,0.15)", width: 1.5 },
          ],
        },
        [xs, data.buckets.map((b) => b.total), data.buckets.map((b) => b.errors)],
        el,
      );
    });
    const resize = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth || 300, height: 140 }));
    resize.observe(el);
    return () => {
      cancelled = true;
      resize.disconnect();
      plot?.destroy();
    };
  }, [data]);
  const total = data.buckets.reduce((s, b) => s + b.total, 0);
  const errors = data.buckets.reduce((s, b) => s + b.errors, 0);
  const per =
    data.bucketMs >= 86_400_000
      ? "day"
      : data.bucketMs >= 3_600_000
        ? `${data.bucketMs / 3_600_000} h`
        : `${data.bucketMs / 60_000} min`;
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-3" data-testid="volume-chart">
      <figcaption className="mb-1 flex flex-wrap justify-between gap-2 text-xs text-slate-700">
        <span>
          <span className="font-medium">{total}</span> operations,{" "}
          <span className="font-medium text-red-800">{errors}</span> errors
          {data.truncated ? " (the newest 50,000 counted)" : ""}
        </span>
        <span>per {per}</span>
      </figcaption>
      <div
        ref={box}
        role="img"
        aria-label={`Operations over time: ${total} operations and ${errors} errors, per ${per}`}
        className="w-full overflow-hidden text-slate-700"
      />
    </figure>
  );
}
