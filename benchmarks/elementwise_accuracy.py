"""Elementwise accuracy on a device: maximum error in float32 ulps, laxarray beside jax.numpy.

For every floating elementwise function of the standard (and NumPy's ``exp2``, ``cbrt``,
``sinc``, ``logaddexp2``, ``fmod``), float32 inputs over the whole domain -- random bit
patterns (every binade, subnormals included), near 1 (``log``), near 0, near multiples of
pi/2, the unit interval, moderate ranges -- are evaluated on the device by laxarray and by
jax.numpy and compared with NumPy's float64 result of the same float32 inputs, in ulps of
the float32 result (``np.spacing`` of the reference rounded to float32)::

    python benchmarks/elementwise_accuracy.py [--out DIR] [--only exp,log] [--dry]

Columns: the maximum ulps over normal inputs and results (``normal``); the same where an
input or the reference is subnormal (``subnormal``: a device that flushes subnormals to
zero shows it here); the count of NaN/inf disagreements with the reference (``special``);
and the median time of one eager call on 2**22 elements of the function's domain, as a
ratio to jax.numpy's (round-robin, median of repeats; compile time apart). ``--dry``: the
CPU, fewer points. Written to DIR: ``accuracy.json`` and ``accuracy.md``.

``--chart PNG`` draws the table as a picture (matplotlib, the ``bench`` extra): each
function's worst error in ulps, laxarray beside jax.numpy, on a log scale with the 4-ulp
line of the rule, and laxarray's time as a ratio to jax.numpy's; ``--from JSON`` draws it
from an earlier run's ``accuracy.json`` (or its printed rows) instead of measuring.  The
picture in ``docs/accelerators.md`` is drawn from the chip's run kept in
``docs/_static/data/tpu_accuracy.json``::

    python benchmarks/elementwise_accuracy.py --from docs/_static/data/tpu_accuracy.json \
        --chart docs/_static/tpu_accuracy.png
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

UNARY = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cos", "cosh", "exp",
         "exp2", "expm1", "log", "log10", "log1p", "log2", "reciprocal", "sin", "sinc",
         "sinh", "sqrt", "square", "tan", "tanh"]
BINARY = ["atan2", "divide", "fmod", "hypot", "logaddexp", "logaddexp2", "pow",
          "remainder"]
#: the timing input of each function (its domain); the rest: [-2, 2]
TIME_DOMAIN = {"acos": (-0.9, 0.9), "asin": (-0.9, 0.9), "atanh": (-0.9, 0.9),
               "acosh": (1.1, 10.0), "log": (0.1, 10.0), "log2": (0.1, 10.0),
               "log10": (0.1, 10.0), "log1p": (-0.5, 10.0), "sqrt": (0.1, 10.0),
               "cbrt": (0.1, 10.0), "pow": (0.1, 4.0)}
TINY = np.float32(np.finfo(np.float32).tiny)


def inputs(n, seed=0):
    """float32 points over the whole domain (see the module docstring)."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    bits = bits[np.isfinite(bits)]
    k = np.arange(-4096, 4097, dtype=np.float64)
    parts = [
        bits,
        (1.0 + k * 2.0 ** -24).astype(np.float32),                # next to 1, ulp by ulp
        rng.uniform(1 - 1e-2, 1 + 1e-2, n // 8).astype(np.float32),
        rng.uniform(-1e-3, 1e-3, n // 8).astype(np.float32),
        rng.uniform(-1, 1, n // 8).astype(np.float32),
        rng.uniform(-10, 10, n // 8).astype(np.float32),
        rng.uniform(-100, 100, n // 8).astype(np.float32),
        (np.pi / 2 * rng.integers(-2000, 2000, n // 16)
         + rng.uniform(-1e-3, 1e-3, n // 16)).astype(np.float32),
        np.array([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, np.inf, -np.inf, np.nan, TINY,
                  np.finfo(np.float32).max, 88.72, -103.97, 89.0], np.float32),
    ]
    return np.concatenate(parts)


def _reference(name, args):
    wide = [a.astype(np.float64) for a in args]
    with np.errstate(all="ignore"):
        if name == "cbrt":
            return np.cbrt(wide[0])
        if name == "reciprocal":
            return 1.0 / wide[0]
        return getattr(np, name)(*wide)


def ulps(got, ref, args):
    """``(max ulps over normal points, over subnormal points, special disagreements,
    [inputs, result, reference] at the worst normal point)``."""
    got = np.asarray(got).astype(np.float64)
    with np.errstate(all="ignore"):
        return _ulps(got, ref, args)


def _ulps(got, ref, args):
    special = np.isnan(ref) | np.isinf(ref)
    bad_special = int(np.count_nonzero(special & ~((np.isnan(ref) & np.isnan(got))
                                                   | (ref == got))))
    finite = ~special
    r32 = ref.astype(np.float32)                    # overflow: the right answer is inf
    over = finite & np.isinf(r32)
    bad_special += int(np.count_nonzero(over & (got != r32.astype(np.float64))))
    keep = finite & ~over
    spacing = np.spacing(np.abs(r32)).astype(np.float64)
    spacing = np.maximum(spacing, 2.0 ** -149)
    err = np.where(keep, np.abs(got - ref) / spacing, 0.0)
    err = np.where(keep & ~np.isfinite(got), np.inf, err)
    sub = np.zeros(ref.shape, bool)
    for a in args:
        sub |= (a != 0) & (np.abs(a) < TINY)
    sub |= (ref != 0) & (np.abs(ref) < TINY)
    normal = keep & ~sub
    worst = int(np.argmax(np.where(normal, err, -1.0))) if normal.any() else 0
    where = [float(a[worst]) for a in args] + [float(got[worst]), float(ref[worst])]
    return (float(err[normal].max(initial=0.0)), float(err[keep & sub].max(initial=0.0)),
            bad_special, where)


def measure(names, n, time_n, repeats):
    import jax
    import jax.numpy as jnp

    import laxarray as lx
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _timing import round_robin

    x = inputs(n)
    y = np.random.default_rng(1).permutation(x)
    rows = []
    for name in names:
        args = (x,) if name in UNARY else (x, y)
        ref = _reference(name, args)
        row = {"function": name}
        for lib, ns in (("laxarray", lx), ("jax.numpy", jnp)):
            fn = getattr(ns, name)
            dev = [ns.asarray(a) for a in args]
            got = np.asarray(fn(*dev))
            row[lib] = dict(zip(("normal", "subnormal", "special", "worst"),
                                ulps(got, ref, args)))
        lo, hi = TIME_DOMAIN.get(name, (-2.0, 2.0))
        t = np.random.default_rng(2).uniform(lo, hi, time_n).astype(np.float32)
        targs = [t] if name in UNARY else [t, t[::-1].copy()]
        lx_args = [lx.asarray(a) for a in targs]
        jnp_args = [jax.device_put(a) for a in targs]
        lx_fn, jnp_fn = getattr(lx, name), getattr(jnp, name)
        times = round_robin({"laxarray": lambda: lx_fn(*lx_args),
                             "jax.numpy": lambda: jnp_fn(*jnp_args)}, repeats)
        row["ms"] = {k: round(v[0], 4) for k, v in times.items()}
        row["ratio"] = round(times["laxarray"][0] / times["jax.numpy"][0], 3)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def table(rows, device):
    lines = [f"Float32 elementwise accuracy on {device}: maximum error in ulps against NumPy's "
             "float64 (normal inputs and results | where an input or the result is "
             "subnormal), NaN/inf disagreements, and the time of an eager call on 2**22 "
             "elements as a ratio to jax.numpy.", "",
             "| function | laxarray ulps | jax.numpy ulps | laxarray subnormal | "
             "jax.numpy subnormal | special (lx/jnp) | time / jnp |",
             "|---|---|---|---|---|---|---|"]

    def f(v):
        return "inf" if v == float("inf") else (f"{v:.0f}" if v >= 10 else f"{v:.2f}")
    for r in rows:
        a, b = r["laxarray"], r["jax.numpy"]
        lines.append(f"| `{r['function']}` | {f(a['normal'])} | {f(b['normal'])} | "
                     f"{f(a['subnormal'])} | {f(b['subnormal'])} | {a['special']}/"
                     f"{b['special']} | {r['ratio']:.2f} |")
    return "\n".join(lines)


def read_rows(path):
    """``(device, rows)`` of an ``accuracy.json``, or of a log of the printed rows."""
    with open(path) as fh:
        text = fh.read()
    if text.lstrip().startswith("{") and '"rows"' in text[:2000]:
        data = json.loads(text)
        return data.get("device", "?") + (f", {data['date']}" if "date" in data else ""), \
            data["rows"]
    return "?", [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def chart(rows, device, path):
    """The picture: worst normal-range ulps per function (log scale), laxarray and
    jax.numpy, the 4-ulp line, laxarray's time over jax.numpy's under each name."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [r["function"] for r in rows]
    floor, top = 0.1, 1e9

    def shown(v):
        return min(max(v, floor), top)
    lx = [shown(r["laxarray"]["normal"]) for r in rows]
    jx = [shown(r["jax.numpy"]["normal"]) for r in rows]
    x = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(max(8.0, 0.42 * len(rows)), 4.2))
    ax.bar(x - 0.2, jx, 0.4, label="jax.numpy", color="#b0b0b0")
    ax.bar(x + 0.2, lx, 0.4, label="laxarray", color="#2b6cb0")
    ax.axhline(4, color="#c53030", lw=1, ls="--", label="4 ulps (the rule)")
    ax.set_yscale("log")
    ax.set_ylim(floor, top * 3)
    ax.set_xticks(x, [f"{n}\n{r['ratio']:.2f}x" for n, r in zip(names, rows)], fontsize=7,
                  rotation=90)
    ax.set_ylabel("worst error, float32 ulps (normal range)")
    ax.set_title(f"float32 elementwise accuracy on {device}\n(under each name: laxarray's "
                 "time / jax.numpy's; bars at 1e9: off the scale, a flushed or NaN result)",
                 fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default="", help="comma-separated function names")
    ap.add_argument("--dry", action="store_true", help="the CPU, fewer points")
    ap.add_argument("--chart", default=None, metavar="PNG", help="draw the table as a picture")
    ap.add_argument("--from", dest="source", default=None, metavar="JSON",
                    help="draw from an earlier run's accuracy.json (or printed rows)")
    args = ap.parse_args(argv)
    if args.source:
        device, rows = read_rows(args.source)
        if args.only:
            rows = [r for r in rows if r["function"] in args.only.split(",")]
        print(table(rows, device))
        if args.chart:
            chart(rows, device, args.chart)
        return 0
    if args.dry:
        os.environ["JAX_PLATFORMS"] = "cpu"
    import jax
    names = [n for n in args.only.split(",") if n] or UNARY + BINARY
    n, time_n, repeats = (2 ** 14, 2 ** 12, 3) if args.dry else (2 ** 19, 2 ** 22, 7)
    device = f"{jax.devices()[0].device_kind} ({jax.default_backend()}, jax {jax.__version__})"
    rows = measure(names, n, time_n, repeats)
    text = table(rows, device)
    print(text)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "accuracy.json"), "w") as fh:
            json.dump({"device": device, "rows": rows}, fh, indent=1)
        with open(os.path.join(args.out, "accuracy.md"), "w") as fh:
            fh.write(text + "\n")
    if args.chart:
        chart(rows, device, args.chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
