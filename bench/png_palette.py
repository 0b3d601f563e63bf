"""Make the one palette every image is encoded in (`bot/render/png_palette.py`) from
the images themselves.

Every game's table and private images (draughts' also with a piece picked) are drawn
as the bot draws them, for every player count, over seeded random playouts (the start,
a third and two thirds in, the end), and the tournament standings with them. The
opaque pixels of all of them, counted, are reduced to `OPAQUE_COLOURS` colours by
Pillow's maximum-coverage quantizer, refined by k-means.

Run it again after a change to `bot.render.palette`: `tests/render/test_png_palette.py`
fails for a colour far from every entry until then.

    python -m bench.png_palette        # rewrites bot/render/png_palette.py
    python -m bench.png_palette --quick --out PATH   # a smoke run
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image

from bench import scenes, tournament_pictures
from bench.render import Encode, adapter_for, has_private_image, wrapping_to_png
from bot.engines.base import Engine
from bot.render.draughts import PIECE
from bot.render.output import OPAQUE_COLOURS

OUT = Path(__file__).resolve().parents[1] / "bot" / "render" / "png_palette.py"
SEEDS = (0, 1)
FRACTIONS = (0.0, 1 / 3, 2 / 3, 1.0)
QUICK_SEEDS = (0,)
QUICK_FRACTIONS = (0.5,)
"""--quick: one state a player count (a smoke run; its palette is not the one to keep)."""
MAX_STEPS = 400
SAMPLE_PIXELS = 4_000_000
"""The counted pixels are scaled down to about this many before quantizing (the
quantizer's time and memory grow with them; the shares of the colours stay)."""
KMEANS_ROUNDS = 3
COLOURS_A_LINE = 16

Counts = Counter[tuple[int, int, int]]


def draw_all(engine: Engine[Any, Any, Any], quick: bool) -> Iterator[None]:
    """Draw ``engine``'s images of every scene (each step yields after one state)."""
    adapter = adapter_for(engine)
    seeds, fractions = (QUICK_SEEDS, QUICK_FRACTIONS) if quick else (SEEDS, FRACTIONS)
    for count in range(engine.min_players, engine.max_players + 1):
        for seed in seeds:
            players = scenes.player_ids(count, seed)
            options = scenes.bot_options(engine, players, {})
            states = scenes.playout(engine, players, seed, options, MAX_STEPS)
            names = scenes.names_for(players)
            for fraction in fractions:
                state = states[round((len(states) - 1) * fraction)]
                adapter.render_table(engine.view(state, None), names, "en")
                if has_private_image(adapter):
                    acting = engine.to_act(state)
                    view = engine.view(state, acting[0] if acting else players[0])
                    adapter.render_private(view, names, "en", {})
                    starts = sorted({m.from_square for m in getattr(view, "moves", ())})
                    if starts:
                        adapter.render_private(view, names, "en", {PIECE: (starts[0],)})
                yield


def count_colours(images: list[Image.Image], counts: Counts) -> None:
    """Add the opaque pixels of ``images`` to ``counts`` (and forget the images)."""
    for image in images:
        rgba = image.convert("RGBA")
        for count, colour in rgba.getcolors(rgba.width * rgba.height) or ():
            if isinstance(colour, tuple) and colour[3] == 255:
                red, green, blue = colour[:3]
                counts[red, green, blue] += count
    images.clear()


def collect(quick: bool = False) -> Counts:
    """The opaque colours of every drawn image, with their pixel counts."""
    drawn: list[Image.Image] = []

    def keep(original: Encode) -> Encode:
        def run(image: Image.Image, *args: Any, **kwargs: Any) -> bytes:
            drawn.append(image.copy())
            return original(image, *args, **kwargs)

        return run

    counts: Counts = Counter()
    with wrapping_to_png(keep):
        for engine in scenes.all_engines():
            for _ in draw_all(engine, quick):
                count_colours(drawn, counts)
        tournament_pictures.pictures()
        count_colours(drawn, counts)
    return counts


def sample_image(counts: Counts) -> Image.Image:
    """One row of pixels with every colour, each about as often as it was drawn
    (scaled to `SAMPLE_PIXELS`, at least once)."""
    scale = max(1.0, sum(counts.values()) / SAMPLE_PIXELS)
    row = bytearray()
    for colour, count in sorted(counts.items()):
        row += bytes(colour) * math.ceil(count / scale)
    return Image.frombytes("RGB", (len(row) // 3, 1), bytes(row))


def palette_of(counts: Counts) -> bytes:
    """`OPAQUE_COLOURS` colours, as RGB bytes."""
    quantized = sample_image(counts).quantize(
        colors=OPAQUE_COLOURS,
        method=Image.Quantize.MAXCOVERAGE,
        kmeans=KMEANS_ROUNDS,
        dither=Image.Dither.NONE,
    )
    colours = quantized.getpalette("RGB") or []
    return bytes(colours[: 3 * OPAQUE_COLOURS]).ljust(3 * OPAQUE_COLOURS, b"\0")


def module_text(colours: bytes) -> str:
    line = 3 * COLOURS_A_LINE
    rows = [colours[k : k + line].hex() for k in range(0, len(colours), line)]
    body = "\n".join(f'    "{row}"' for row in rows)
    return (
        '"""The opaque colours of every image\'s palette (`bot.render.output`), as RGB\n'
        "bytes: made by ``python -m bench.png_palette`` from the images themselves. Do not\n"
        'edit by hand; run that again after a change to `bot.render.palette`."""\n\n'
        f"COLOURS = bytes.fromhex(\n{body}\n)\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT, help="the module to write")
    parser.add_argument("--quick", action="store_true", help="a smoke run: a few images")
    arguments = parser.parse_args(argv)
    counts = collect(arguments.quick)
    arguments.out.write_text(module_text(palette_of(counts)))
    print(f"{arguments.out}: {OPAQUE_COLOURS} colours from {len(counts):,} drawn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
