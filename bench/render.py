"""Time poster rendering: `python bench/render.py [--stickers N]`.

Builds a throw-away database and MEDIA_ROOT in a temporary folder, uploads a 2000×2000 PNG
and an SVG of 5,000 paths as assets, places them N times (rotated) on the 1920×1080 template,
and times render.png and render.svg through the services, best of 3.
"""

import argparse
import os
import random
import sys
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django(folder: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ["MEDIA_ROOT"] = str(folder / "media")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def sample_png() -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (2000, 2000), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    rng = random.Random(1)
    for _ in range(3000):
        x, y = rng.randrange(2000), rng.randrange(2000)
        draw.rectangle(
            (x, y, x + rng.randrange(5, 80), y + rng.randrange(5, 30)),
            fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256), 255),
        )
    out = BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def sample_svg() -> bytes:
    rng = random.Random(2)
    paths = "".join(
        f'<path id="w{i}" d="M{rng.uniform(0, 2000):.1f} {rng.uniform(0, 2000):.1f}'
        f'h{rng.uniform(5, 60):.1f}v{rng.uniform(5, 20):.1f}h-20z" fill="#336699"/>'
        for i in range(5000)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2000 2000">{paths}</svg>'
    ).encode()


def best_of(function, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stickers", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder))
        import json

        from django.conf import settings
        from django.core.files.uploadedfile import SimpleUploadedFile

        from wordclouds.drawing.poster import render_png, render_svg
        from wordclouds.services.assets import asset_create
        from wordclouds.services.projects import project_create, project_poster

        png = asset_create(upload=SimpleUploadedFile("cloud.png", sample_png()))
        svg = asset_create(upload=SimpleUploadedFile("cloud.svg", sample_svg()))
        rng = random.Random(3)
        stickers = [
            {
                "asset_id": (png, svg)[i % 2].id,
                "x": rng.uniform(-200, 1700),
                "y": rng.uniform(-200, 900),
                "width": rng.uniform(200, 900),
                "height": rng.uniform(200, 900),
                "rotation": rng.uniform(-45, 45),
            }
            for i in range(args.stickers)
        ]
        project = project_create(
            name="bench",
            template_id="poster_16x9",
            background_color="#FFFFFF",
            stickers=json.dumps(stickers),
        )
        print(
            f"{args.stickers} stickers on 1920x1080 (half a 2000x2000 PNG, half an SVG of "
            f"5,000 paths), best of 3"
        )
        poster = project_poster(project)
        max_pixels = settings.RENDER_MAX_PIXELS
        print(f"render.png {best_of(lambda: render_png(poster, max_pixels=max_pixels)):.3f} s")
        print(f"render.svg {best_of(lambda: render_svg(poster)):.3f} s")


if __name__ == "__main__":
    main()
