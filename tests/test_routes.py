"""The route table (config/urls.py says how a request finds its route): every route Django
answers has a name of its own, and none is hidden by a route tried before it, which is what
the order of the included lists has to keep (the drawn job files before the stored ones'
`files/<kind>`, `jobs/size-advice` before `jobs/<id>`)."""

import re
from collections import Counter

from django.urls import URLPattern, URLResolver, get_resolver, resolve

# An example value of each path converter the routes use.
EXAMPLES = {"int": "7", "str": "x7", "path": "x7/y7", "slug": "x7"}


def routes(patterns=None, prefix=""):
    """(route, pattern) of every route Django answers, in the order it tries them; the
    admin's own (made by Django from the registered models) left out."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if getattr(pattern, "app_name", None) != "admin":
                yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern


def example_path(route: str) -> str:
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: EXAMPLES[m.group(1) or "str"], route)


def test_every_route_has_a_name_of_its_own():
    names = Counter(pattern.name for _, pattern in routes())

    assert names[None] == 0, [route for route, pattern in routes() if pattern.name is None]
    assert [name for name, count in names.items() if count > 1] == []


def test_no_route_is_answered_by_one_tried_before_it():
    hidden = {
        route: resolve(example_path(route)).route
        for route, pattern in routes()
        if resolve(example_path(route)).url_name != pattern.name
    }

    assert hidden == {}
