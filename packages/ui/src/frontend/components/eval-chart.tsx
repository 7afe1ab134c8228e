import { Chart, type ChartConfiguration, registerables } from "chart.js";
import { useEffect, useRef, useState } from "preact/hooks";

Chart.register(...registerables);

function cssColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

const DARK = matchMedia("(prefers-color-scheme: dark)");

/** Follows the reader's colour scheme, so the charts redraw with its text and grid colours. */
function useColorScheme(): boolean {
  const [dark, setDark] = useState(DARK.matches);
  useEffect(() => {
    const update = () => setDark(DARK.matches);
    DARK.addEventListener("change", update);
    return () => DARK.removeEventListener("change", update);
  }, []);
  return dark;
}

/**
 * One Chart.js chart in a figure with its caption. `size` picks the box's height from the stylesheet
 * (no inline style: the page runs under a strict CSP).
 */
export function EvalChart(props: {
  title: string;
  name: string;
  config: ChartConfiguration;
  size?: "short" | "tall";
  /** A line under the caption (why a chart is flat). */
  note?: string | null;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const dark = useColorScheme();
  useEffect(() => {
    if (canvas.current === null) return;
    Chart.defaults.animation = false;
    Chart.defaults.maintainAspectRatio = false;
    Chart.defaults.color = cssColor("--muted");
    Chart.defaults.borderColor = cssColor("--line");
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    const chart = new Chart(canvas.current, props.config);
    canvas.current.dataset.drawn = "true";
    return () => chart.destroy();
  }, [props.config, dark]);
  return (
    <figure class="eval-chart" data-chart={props.name}>
      <figcaption>
        {props.title}
        {props.note !== undefined && props.note !== null && <span class="eval-chart-note">{props.note}</span>}
      </figcaption>
      <div class={`eval-chart-box ${props.size ?? "normal"}`}>
        <canvas ref={canvas} role="img" aria-label={props.title} />
      </div>
    </figure>
  );
}
