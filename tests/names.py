"""Names for tests and benchmarks (a plain module, so bench/ need not import a conftest)."""


def sample_names(count: int) -> list[str]:
    """Distinct, mixed Latin and CJK names."""
    given = ["Anna", "李雷", "Bruno", "韩梅梅", "Chloé", "王芳", "Dmitri", "Émile"]
    return [f"{given[i % len(given)]} {i}" for i in range(count)]
