import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export interface Series {
  label: string;
  values: number[];
  color: string;
}

/** A time chart (uPlot): `times` in seconds over `range` (seconds), one line per series; it follows its container's width. */
export function TimeChart(props: { title: string; times: number[]; series: Series[]; range: [number, number]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const plot = new uPlot(
      {
        title: props.title,
        width: el.clientWidth || 600,
        height: props.height ?? 220,
        scales: { x: { time: true, range: () => props.range } },
        series: [{}, ...props.series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true } }))],
        axes: [{}, { size: 60 }],
      },
      [props.times, ...props.series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: props.height ?? 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.times, props.series, props.range[0], props.range[1]]);
  return <div class="chart" ref={box} data-chart={props.title} />;
}
