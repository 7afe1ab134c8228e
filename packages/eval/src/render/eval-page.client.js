// The HTML report's charts, drawn with Chart.js (inlined before this script) from the JSON in #eval-chart-data.
// The tables are plain HTML; with JavaScript off the page reads the same, without charts.
(() => {
  const Chart = globalThis.Chart;
  const dataElement = document.getElementById("eval-chart-data");
  const section = document.getElementById("charts");
  if (Chart === undefined || dataElement === null || section === null) return;
  const data = JSON.parse(dataElement.textContent);

  const VERDICT_COLORS = data.colors.verdicts;
  const PALETTE = data.colors.palette;
  const percent = (value) => `${Math.round(value * 1000) / 10}%`;
  const charts = [];

  function cssColor(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }

  function addChart(title, config, height) {
    const figure = document.createElement("figure");
    figure.className = "chart";
    const caption = document.createElement("figcaption");
    caption.textContent = title;
    const box = document.createElement("div");
    box.className = "chart-box";
    box.style.height = `${height ?? 260}px`;
    const canvas = document.createElement("canvas");
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", title);
    box.append(canvas);
    figure.append(caption, box);
    section.append(figure);
    charts.push(new Chart(canvas, config));
  }

  function distributionChart(title, series, format) {
    const datasets = ["p50", "p90", "max"].map((key, index) => ({
      label: key,
      data: series[key],
      backgroundColor: ["#4e79a7", "#a0cbe8", "#bab0ac"][index],
    }));
    addChart(title, {
      type: "bar",
      data: { labels: data.variants, datasets },
      options: {
        scales: { y: { beginAtZero: true, ticks: { callback: (value) => format(value) } } },
        plugins: { tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${format(item.parsed.y)}` } } },
      },
    });
  }

  function draw() {
    for (const chart of charts.splice(0)) chart.destroy();
    section.replaceChildren();
    Chart.defaults.animation = false;
    Chart.defaults.maintainAspectRatio = false;
    Chart.defaults.color = cssColor("--muted");
    Chart.defaults.borderColor = cssColor("--grid");
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;

    addChart("Samples by verdict", {
      type: "bar",
      data: {
        labels: data.variants,
        datasets: ["passed", "failed", "errored"].map((verdict) => ({
          label: verdict,
          data: data.verdicts[verdict],
          backgroundColor: VERDICT_COLORS[verdict],
        })),
      },
      options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    });

    addChart("Outcomes (thread status · final $status · ending role)", {
      type: "bar",
      data: {
        labels: data.variants,
        datasets: data.outcomes.map((outcome, index) => ({
          label: outcome.label,
          data: outcome.counts,
          backgroundColor: PALETTE[index % PALETTE.length],
        })),
      },
      options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    });

    addChart("Pass rate with its 95% Wilson interval", {
      type: "bar",
      data: {
        labels: data.variants,
        datasets: [
          {
            type: "line",
            label: "pass rate",
            data: data.passRates.rate,
            showLine: false,
            pointStyle: "rectRot",
            pointRadius: 7,
            pointHoverRadius: 8,
            backgroundColor: cssColor("--text"),
            borderColor: cssColor("--text"),
          },
          {
            label: "95% interval",
            data: data.passRates.low.map((low, index) => (low === null ? null : [low, data.passRates.high[index]])),
            backgroundColor: "rgba(78, 121, 167, 0.35)",
            borderColor: "#4e79a7",
            borderWidth: 1,
            barPercentage: 0.4,
          },
        ],
      },
      options: {
        scales: { y: { min: 0, max: 1, ticks: { callback: (value) => percent(value) } } },
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) =>
                Array.isArray(item.raw)
                  ? `95% interval: ${percent(item.raw[0])}–${percent(item.raw[1])}`
                  : `pass rate: ${percent(item.parsed.y)}`,
            },
          },
        },
      },
    });

    distributionChart("Cost per sample (USD)", data.costUsd, (value) => `$${Number(value).toFixed(4)}`);
    distributionChart(
      "Duration per sample",
      data.durationSeconds,
      // Scripted runs take milliseconds: under a second, ticks in ms so they do not all read "0.1 s".
      (value) => (Number(value) < 1 ? `${Math.round(Number(value) * 1000)} ms` : `${Number(value).toFixed(1)} s`),
    );

    if (data.cases !== null) {
      addChart(
        "Pass rate per case",
        {
          type: "bar",
          data: {
            labels: data.cases.labels,
            datasets: data.cases.series.map((series, index) => ({
              label: series.variant,
              data: series.rates,
              backgroundColor: PALETTE[index % PALETTE.length],
            })),
          },
          options: {
            indexAxis: "y",
            scales: { x: { min: 0, max: 1, ticks: { callback: (value) => percent(value) } } },
            plugins: {
              tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${percent(item.parsed.x)}` } },
            },
          },
        },
        Math.max(200, 60 + data.cases.labels.length * data.cases.series.length * 22),
      );
    }
    section.hidden = false;
    section.dataset.charts = String(charts.length);
  }

  draw();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", draw);
})();
