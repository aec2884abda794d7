// A simple bar chart of two monthly figures (sales and GST, or revenue and GST), drawn as inline
// SVG at the container's own pixel width so the text stays readable on a phone and a desktop alike.
// For screen readers it is one image with a summary; the table below it carries every figure.
import { useEffect, useId, useRef, useState } from 'react';
import { formatMonth, formatNzd } from '@tradie/domain';
import { heightFraction, labelEvery, monthLabels, niceScale, tickLabel } from './chart.ts';

export interface ChartRow {
  /** 'YYYY-MM' */
  month: string;
  /** The main figure and GST, whole cents. */
  main: bigint;
  gst: bigint;
}

interface Props {
  rows: readonly ChartRow[];
  /** 'Sales' or 'Revenue'. */
  mainLabel: string;
  /** The chart's title, e.g. 'Monthly sales and GST'. */
  title: string;
}

const HEIGHT = 220;
const PAD_TOP = 12;
const PAD_RIGHT = 8;
const PAD_BOTTOM = 36;
const FONT = 12;

/** The element's content width in CSS pixels, kept up to date. */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, Math.floor(el.clientWidth)));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width] as const;
}

export function BarChart({ rows, mainLabel, title }: Props) {
  const [ref, width] = useWidth<HTMLDivElement>(320);
  const id = useId();
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;

  const max = rows.reduce((m, r) => (r.main > m ? r.main : r.gst > m ? r.gst : m), 0n);
  const scale = niceScale(max);
  const longestTick = Math.max(...scale.ticks.map((t) => tickLabel(t).length));
  const padLeft = Math.ceil(longestTick * FONT * 0.62) + 10;
  const plotW = Math.max(40, width - padLeft - PAD_RIGHT);
  const plotH = HEIGHT - PAD_TOP - PAD_BOTTOM;
  const baseline = PAD_TOP + plotH;
  const slot = plotW / Math.max(1, rows.length);
  const barW = Math.max(1, Math.min(28, slot * 0.36));
  const labels = monthLabels(
    rows.map((r) => r.month),
    labelEvery(rows.length, plotW),
  );
  const y = (v: bigint) => baseline - heightFraction(v, scale.top) * plotH;

  const first = rows[0];
  const last = rows[rows.length - 1];
  const best = rows.reduce<ChartRow | undefined>((b, r) => (b === undefined || r.main > b.main ? r : b), undefined);
  const description =
    first && last && best
      ? `${mainLabel} and GST for each month from ${formatMonth(first.month)} to ${formatMonth(last.month)}. ` +
        (best.main > 0n ? `Highest ${mainLabel.toLowerCase()}: ${formatMonth(best.month)}, ${formatNzd(best.main)}.` : `No ${mainLabel.toLowerCase()} in these months.`) +
        ' The Monthly Breakdown table has every figure.'
      : '';

  return (
    <figure className="card report-chart">
      <div className="report-chart__legend" aria-hidden="true">
        <span className="report-chart__key report-chart__key--main">{mainLabel}</span>
        <span className="report-chart__key report-chart__key--gst">GST</span>
      </div>
      <div ref={ref} className="report-chart__canvas">
        <svg role="img" aria-labelledby={`${titleId} ${descId}`} width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} className="report-chart__svg">
          <title id={titleId}>{title}</title>
          <desc id={descId}>{description}</desc>
          {scale.ticks.map((t) => (
            <g key={String(t)}>
              <line x1={padLeft} x2={padLeft + plotW} y1={y(t)} y2={y(t)} className={t === 0n ? 'report-chart__axis' : 'report-chart__grid'} />
              <text x={padLeft - 6} y={y(t)} dy="0.35em" textAnchor="end" className="report-chart__tick" fontSize={FONT}>
                {tickLabel(t)}
              </text>
            </g>
          ))}
          {rows.map((r, i) => {
            const cx = padLeft + slot * i + slot / 2;
            const label = labels[i];
            return (
              <g key={r.month}>
                <title>{`${formatMonth(r.month)}: ${mainLabel.toLowerCase()} ${formatNzd(r.main)}, GST ${formatNzd(r.gst)}`}</title>
                <rect x={cx - barW} y={y(r.main)} width={barW} height={baseline - y(r.main)} className="report-chart__bar report-chart__bar--main" />
                <rect x={cx} y={y(r.gst)} width={barW} height={baseline - y(r.gst)} className="report-chart__bar report-chart__bar--gst" />
                {label && (
                  <text x={cx} y={baseline + FONT + 4} textAnchor="middle" className="report-chart__tick" fontSize={FONT}>
                    <tspan x={cx}>{label.month}</tspan>
                    {label.year && (
                      <tspan x={cx} dy={FONT + 2}>
                        {label.year}
                      </tspan>
                    )}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}
