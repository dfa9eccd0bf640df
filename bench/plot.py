#!/usr/bin/env python3
"""Draw the figures bench/compare describes in a JSON file (needs matplotlib).

    plot.py SPEC.json OUTDIR

SPEC: {"figures": [{"file": "latency.png", "title": "...", "columns": 2,
                    "panels": [PANEL, ...]}, ...]}
PANEL, kind "line": {"title", "xlabel", "ylabel", "logx", "logy", "xsizes",
                     "series": [{"label", "x": [...], "y": [...], "lo": [...],
                                 "hi": [...], "limit": false}, ...]}
       medians as lines with markers, the min-max range shaded; a limit series
       is drawn black and dashed.  xsizes: x ticks as byte sizes (4, 1K, 1M).
PANEL, kind "bar":  {"title", "ylabel", "logy", "groups": [names],
                     "hline": 1.0, "series": [{"label", "y": [...], "lo": [...],
                                               "hi": [...]}, ...]}
       grouped bars, whiskers from lo to hi (null: none), a dotted reference
       line at hline; a list draws the first dotted black, the others dashed red.
compare writes SPEC and runs this with the matplotlib of build-bench-venv/.
"""

import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

COLOURS = {"dmpi": "tab:blue", "Open MPI": "tab:orange", "MPICH": "tab:green"}


def size_text(v, _pos=None):
    if v <= 0:
        return ""
    for unit, shift in (("M", 20), ("K", 10)):
        if v >= (1 << shift) and v % (1 << shift) == 0:
            return "%d%s" % (v // (1 << shift), unit)
    return "%g" % v


def colour(label, i):
    return COLOURS.get(label, "C%d" % (i + 3))


def line_panel(ax, p):
    for i, s in enumerate(p["series"]):
        pts = [(x, y, lo, hi) for x, y, lo, hi in zip(s["x"], s["y"], s["lo"], s["hi"])
               if y is not None and (not p.get("logx") or x > 0) and (not p.get("logy") or y > 0)]
        if not pts:
            continue
        xs, ys, los, his = zip(*pts)
        if s.get("limit"):
            ax.plot(xs, ys, "k--", linewidth=1.2, label=s["label"])
            continue
        c = colour(s["label"], i)
        ax.plot(xs, ys, "o-", color=c, markersize=3, linewidth=1.4, label=s["label"])
        if any(lo is not None for lo in los):
            ax.fill_between(xs, [lo if lo is not None else y for lo, y in zip(los, ys)],
                            [hi if hi is not None else y for hi, y in zip(his, ys)],
                            color=c, alpha=0.18, linewidth=0)
    if p.get("logx"):
        ax.set_xscale("log", base=2)
        if p.get("xsizes"):
            ax.xaxis.set_major_locator(LogLocator(base=4))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, pos: size_text(int(round(v)))))
            ax.xaxis.set_minor_formatter(NullFormatter())
    if p.get("logy"):
        ax.set_yscale("log")
    ax.set_xlabel(p.get("xlabel", ""))
    ax.set_ylabel(p.get("ylabel", ""))
    ax.set_title(p.get("title", ""), fontsize=10)
    ax.grid(True, which="major", alpha=0.3)


def bar_panel(ax, p):
    groups = p["groups"]
    n = max(1, len(p["series"]))
    width = 0.8 / n
    for i, s in enumerate(p["series"]):
        xs = [g + (i - (n - 1) / 2.0) * width for g in range(len(groups))]
        ys = [y if y is not None else float("nan") for y in s["y"]]
        ax.bar(xs, ys, width=width, color="C%d" % i, label=s["label"])
        # (max: a geometric mean can round a hair below the minimum)
        lo = [max(0.0, y - l) if y == y and l is not None else 0 for y, l in zip(ys, s["lo"])]
        hi = [max(0.0, h - y) if y == y and h is not None else 0 for y, h in zip(ys, s["hi"])]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="black", elinewidth=0.8,
                    capsize=2)
    hline = p.get("hline")
    for i, v in enumerate(hline if isinstance(hline, list) else
                          [] if hline is None else [hline]):
        ax.axhline(v, color="black" if i == 0 else "red", linestyle=":" if i == 0 else "--",
                   linewidth=1)
    if p.get("logy"):
        ax.set_yscale("log")
        vals = [v for s in p["series"] for v in s["y"] + s["lo"] + s["hi"]
                if v is not None and v > 0]
        if vals:
            ax.set_ylim(min(min(vals), 1.0) / 1.5, max(max(vals), 1.0) * 1.5)
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, pos: "%g" % v))
        ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel(p.get("ylabel", ""))
    ax.set_title(p.get("title", ""), fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)


def figure(f, outdir):
    panels = f["panels"]
    cols = min(f.get("columns", 1), len(panels))
    rows = int(math.ceil(len(panels) / float(cols)))
    w, h = f.get("panel_size", (6.0, 4.0))
    fig, axes = plt.subplots(rows, cols, figsize=(w * cols, h * rows), squeeze=False)
    for ax, p in zip([a for row in axes for a in row], panels):
        (bar_panel if p.get("kind") == "bar" else line_panel)(ax, p)
    for ax in [a for row in axes for a in row][len(panels):]:
        ax.set_visible(False)
    handles, labels = [], []
    for ax in [a for row in axes for a in row]:
        for hd, lb in zip(*ax.get_legend_handles_labels()):
            if lb not in labels:
                handles.append(hd)
                labels.append(lb)
    if handles:
        fig.legend(handles, labels, loc="upper center", ncol=len(labels), frameon=False,
                   bbox_to_anchor=(0.5, 1.0 - 0.02 / rows))
    if f.get("title"):
        fig.suptitle(f["title"], y=1.0 + 0.06 / rows)
    fig.tight_layout(rect=(0, 0, 1, 1.0 - 0.08 / rows))
    path = os.path.join(outdir, f["file"])
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def main(argv):
    if len(argv) != 3:
        print("usage: plot.py SPEC.json OUTDIR", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        spec = json.load(f)
    os.makedirs(argv[2], exist_ok=True)
    for f in spec["figures"]:
        print(figure(f, argv[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
