"""Names for tests and benchmarks (a plain module, so bench/ need not import a conftest)."""

import random

import openpyxl


def sample_names(count: int) -> list[str]:
    """Distinct, mixed Latin and CJK names."""
    given = ["Anna", "李雷", "Bruno", "韩梅梅", "Chloé", "王芳", "Dmitri", "Émile"]
    return [f"{given[i % len(given)]} {i}" for i in range(count)]


def latin_names(count: int, seed: int) -> list[str]:
    """``count`` Latin names, ``First Last``, drawn from a few dozen of each by ``seed``
    (repeats happen, as in real lists)."""
    rng = random.Random(seed)
    first = (
        "Dmitri Chloé Anna Lukas Mia Noah Emma Jonas Léa Oskar Zoë Björn Inès Mateo Sofía "
        "William Olivia James Amelia Henry Charlotte Jack Isla Thomas Grace Felix Ava Hugo"
    )
    last = (
        "Smith Müller García Rossi Novak Dubois Berg Silva Kim Łukasik Nørgaard O'Neill Weiß "
        "Johnson Brown Taylor Wilson Martin Anderson Thompson White Harris Clark Lewis Young"
    )
    firsts, lasts = first.split(), last.split()
    return [f"{rng.choice(firsts)} {rng.choice(lasts)}" for _ in range(count)]


def write_names(path, names, *, column=0, header=True):
    """Write ``names`` into ``column`` (0-based) of a new .xlsx, under a header row."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    if header:
        sheet.cell(row=1, column=column + 1, value="name")
    for row, name in enumerate(names, start=2 if header else 1):
        sheet.cell(row=row, column=column + 1, value=name)
    workbook.save(path)
    return path
