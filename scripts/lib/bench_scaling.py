"""The scaling table of the size-sweeping benchmarks (scripts/bench-lib/library, daemon):
each figure per library size and how fast it grows with the number of tracks.

A growth factor is normalised to 10x tracks, factor = (b/a) ** (1 / log10(nb/na)), so
pairs of sizes that are not a decade apart (20k -> 100k, 10k -> 20k) read like those
that are: a cost linear in the tracks reads 10, a constant one 1, n log n a little over
10, a quadratic one 100. A super-linear cost is one whose factor is well above 10.
"""
import math


def growth_per_decade(size_a, value_a, size_b, value_b):
    """The factor by which a figure grows per 10x tracks between two sizes; None where
    it cannot be told (a missing, failed or zero figure)."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (value_a, value_b))
    if not numbers or value_a <= 0 or value_b <= 0 or size_b <= size_a:
        return None
    return (value_b / value_a) ** (1 / math.log10(size_b / size_a))


def short_size(size):
    """10000 -> 10k, 1000000 -> 1M."""
    if size >= 1_000_000 and size % 1_000_000 == 0:
        return f"{size // 1_000_000}M"
    if size >= 1000 and size % 1000 == 0:
        return f"{size // 1000}k"
    return f"{size:,}"


def scaling_table(title, results, metrics):
    """RESULTS: one per size, each with "size". METRICS: (label, qplay getter, MPD getter
    or None, formatter); a getter takes a result and returns a number or None. One row
    per daemon and metric: the figure at each size, then its growth per 10x tracks
    between neighbouring sizes."""
    results = sorted(results, key=lambda r: r["size"])
    sizes = [r["size"] for r in results]
    pairs = list(zip(range(len(sizes)), range(1, len(sizes))))
    label_width = max([len(title)] + [len(m[0]) for m in metrics]) + 9
    width = 11
    head = "".join(f"{short_size(s):>{width}}" for s in sizes)
    head += "".join(f"{short_size(sizes[a]) + '->' + short_size(sizes[b]):>{width}}" for a, b in pairs)
    lines = [f"{title:<{label_width}}{head}",
             f"{'':<{label_width}}{'(figure at each size)':>{width * len(sizes)}}"
             f" {'(growth per 10x tracks)':>{width * len(pairs) - 1}}"]

    def value(getter, result):
        try:
            return getter(result)
        except (KeyError, TypeError, IndexError):
            return None

    for label, qplay_get, mpd_get, fmt in metrics:
        first = True
        for who, getter in (("qplay", qplay_get), ("MPD", mpd_get)):
            if getter is None:
                continue
            values = [value(getter, r) for r in results]
            if who == "MPD" and all(v is None for v in values):
                continue
            cells = "".join(f"{fmt(v) if isinstance(v, (int, float)) else '-':>{width}}" for v in values)
            for a, b in pairs:
                g = growth_per_decade(sizes[a], values[a], sizes[b], values[b])
                cells += f"{(f'{g:.1f}x' if g is not None else '-'):>{width}}"
            name = f"{label}, {who}" if first else f"{'':<{len(label)}}  {who}"
            first = False
            lines.append(f"{name:<{label_width}}{cells}")
    return "\n".join(lines)
