"""The shop's own print sizes, which the size advice and a job's failure with a printed size
weigh beside the A sizes (docs/engine.md, "Printed size"). Commerce registers its products'
sizes through wordclouds' face (services/designs.py); wordclouds never reads them itself."""

from collections.abc import Callable, Iterable

_SOURCES: list[Callable[[], Iterable[tuple]]] = []


def shop_sizes_register(source: Callable[[], Iterable[tuple]]) -> None:
    """``source()`` yields (name, width mm or None, height mm or None) of each size the shop
    sells now (commerce's active products with a size, in its AppConfig.ready)."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def shop_sizes() -> list[tuple]:
    """Every registered size, as the engine takes them (``shop_sizes``)."""
    return [size for source in _SOURCES for size in source()]
