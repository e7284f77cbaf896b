"""Name lookups and the occupancy mask of a finished job, read from the placements table
(wordclouds/services/placements.py loads it from the job's positions.db)."""

import dataclasses
import functools
import io
import json
import math
import unicodedata

import numpy as np
from django.conf import settings
from django.db import connection
from django.db.models import QuerySet
from PIL import Image

from core.errors import InvalidInput, NotFound
from core.inputs import Inputs, Text
from wordclouds.models import Placement
from wordclouds.selectors import job_id_checked, number
from wordclouds.services.placements import COLUMNS, placement_set_get

MATCH_COLUMNS = COLUMNS  # the answer's keys, in order: positions.db's columns
# Placement's fields in MATCH_COLUMNS order: the answer's `id` is the placement's number.
MATCH_FIELDS = ("number", *MATCH_COLUMNS[1:])
# each row also brings its job's canvas size and groups (one query for a lookup with matches)
CANVAS_FIELDS = (
    "placement_set__canvas_width",
    "placement_set__canvas_height",
    "placement_set__groups",
)
MODES = ("exact", "contains")


@dataclasses.dataclass(frozen=True)
class LookupQuery:
    group: str = ""


# The lookups' declared query parameters (`name` and `mode` are read as before: `query`
# echoes the name as sent, untrimmed, and a name holding NUL matches nothing).
LOOKUP_QUERY = Inputs(
    LookupQuery,
    (
        Text(
            "group",
            "only the placements of this group (GROUP_COL_INDEX); one the job does not have: "
            "404 group_unknown",
            high=200,
            absent="every group",
        ),
    ),
)


def _normalized(text: str) -> str:
    """A query cleaned like the engine cleans names: trimmed, inner white space folded to
    one space, Unicode NFC."""
    return unicodedata.normalize("NFC", " ".join(text.split()))


def locations_find(*, job_id: str, name: str = "", mode: str = "exact", group: str = "") -> dict:
    """The Location result of the spec: placements whose name equals `name` (exact) or holds
    it case-insensitively (contains; `%`, `_` and `\\` are plain characters), by id, at most
    LOOKUP_MATCHES_MAX of them with `total` counting all; every placement when `name` is empty.
    A `group` keeps the placements of that group only. 400 `mode must be exact or
    contains`; 404 `job not found` / `artifact not ready` / `group "X" is not a group of this
    poster`."""
    if mode not in MODES:
        raise InvalidInput("mode must be exact or contains", code="lookup_mode_invalid")
    job_id_checked(job_id)  # 404 for anything but 32 hex characters, before any query
    query = _normalized(name)
    # Each row also brings its job's canvas size and groups (a join on PlacementSet's key):
    # a lookup with matches is one query. Without any, the job may not be loaded yet (or not
    # exist), or the group may not be one of the job's.
    most = settings.LOOKUP_MATCHES_MAX
    found = _rows(job_id, query, mode, group)
    if found:
        width, height, groups = found[0][-3:]
    else:
        placement_set = placement_set_get(job_id)
        width, height = placement_set.canvas_width, placement_set.canvas_height
        groups = placement_set.groups
        if group and group not in groups:
            shown = json.dumps(group, ensure_ascii=False)
            raise NotFound(f"group {shown} is not a group of this poster", code="group_unknown")
        found = _rows(job_id, query, mode, group)
    matches = [_match(row, grouped=bool(groups)) for row in found]
    if query and len(matches) == most:
        matching = placements_matching(job_id=job_id, query=query, mode=mode, group=group)
        total = matching.count()
    else:
        total = len(matches)
    return {
        "job_id": job_id,
        "query": name,
        "mode": mode,
        "group": group or None,
        "groups": groups,
        "total": total,
        "canvas_width": number(width),
        "canvas_height": number(height),
        "matches": matches,
    }


def _match(row: tuple, *, grouped: bool) -> dict:
    """A match's answer: its `group` null in a job without groups."""
    match = dict(zip(MATCH_COLUMNS, row[: len(MATCH_COLUMNS)]))
    if not grouped:
        match["group"] = None
    return match


def placements_matching(*, job_id: str, query: str, mode: str, group: str = "") -> QuerySet:
    """The job's placements (of `group` only, when given) matching a cleaned query, by id
    (every one for an empty query): exact through the index on (job, name), contains
    through the trigram index on PostgreSQL (migration 0003)."""
    placements = Placement.objects.filter(placement_set_id=job_id).order_by("number")
    if group:
        placements = placements.filter(group=group)
    if "\x00" in query:
        return placements.none()  # no name holds NUL (nor can PostgreSQL compare one)
    if query and mode == "contains":
        # Python's lower() on both sides, as the column was filled: Unicode, not ASCII only.
        # `__contains` is `LIKE '%x%'` with % _ \ escaped, which gin_trgm_ops serves.
        return placements.filter(name_folded__contains=query.lower())
    return placements.filter(name=query) if query else placements


def _rows(job_id: str, query: str, mode: str, group: str) -> list[tuple]:
    """The first LOOKUP_MATCHES_MAX matches (every placement for an empty query) as
    MATCH_FIELDS + CANVAS_FIELDS rows. A name query runs the SQL the ORM wrote for its mode
    once per process: building it took 1 ms of CPU a lookup, ten times what running it costs
    (docs/benchmarks.md, "Lookups under a crowd")."""
    if not query or "\x00" in query:  # every placement, or none
        placements = placements_matching(job_id=job_id, query=query, mode=mode, group=group)
        return list(placements.values_list(*MATCH_FIELDS, *CANVAS_FIELDS))
    sql = _match_sql(connection.vendor, mode, settings.LOOKUP_MATCHES_MAX, bool(group))
    # The value as Django's lookup passes it: `contains` wraps it in % with % _ \ escaped.
    value = (
        f"%{connection.ops.prep_for_like_query(query.lower())}%" if mode == "contains" else query
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, (job_id, group, value) if group else (job_id, value))
        return [(*row[:-1], _groups(row[-1])) for row in cursor.fetchall()]


def _groups(value) -> list[str]:
    """PlacementSet.groups as raw SQL gives it: JSON text (SQLite) or already a list."""
    return json.loads(value) if isinstance(value, str) else value


@functools.cache
def _match_sql(vendor: str, mode: str, most: int, grouped: bool) -> str:
    """The SQL of a name query's first `most` rows in `mode` on this database (`vendor`
    and `most` key the cache: tests change the limit), with the job, the group (when
    `grouped`) and the value as its parameters."""
    group = "g" if grouped else ""
    placements = placements_matching(job_id="0" * 32, query="x", mode=mode, group=group)
    rows = placements.values_list(*MATCH_FIELDS, *CANVAS_FIELDS)[:most]
    sql, params = rows.query.sql_with_params()
    assert len(params) == 2 + grouped, params  # the job, the group, then the name's value
    return sql


def occupancy_mask_png(*, job_id: str) -> bytes:
    """A PNG of the canvas: black, with every placed word's box filled white (8-bit grey).
    A box covers every pixel it touches, so the mask never under-reports occupied space."""
    placement_set = placement_set_get(job_id)
    width, height = placement_set.canvas_width, placement_set.canvas_height
    boxes = Placement.objects.filter(placement_set_id=job_id).values_list(
        "box_x", "box_y", "box_width", "box_height"
    )
    mask = np.zeros((math.ceil(height), math.ceil(width)), dtype=np.uint8)
    for x, y, w, h in boxes:
        left, top = max(0, math.floor(x)), max(0, math.floor(y))
        mask[top : math.ceil(y + h), left : math.ceil(x + w)] = 255
    out = io.BytesIO()
    Image.fromarray(mask).save(out, format="PNG")
    return out.getvalue()
