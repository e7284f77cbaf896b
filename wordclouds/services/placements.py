"""A finished job's placements in the database (tables PlacementSet, Placement), loaded from
its positions.db: by the worker in the transaction that marks the job done, else by the first
lookup of a job that has none there yet (jobs finished before the table existed, and finished
folders without a record). The lookups read the table only (docs/lookup.md)."""

import json
from dataclasses import dataclass
from pathlib import Path

from django.db import IntegrityError, connection, transaction

from wordclouds.engine.positions import PLACED_COLUMNS, read_meta, read_word_rows
from wordclouds.models import Placement, PlacementSet
from wordclouds.selectors import artifact_path, canvas_size, job_get, job_id_checked

# positions.db's `words` columns the table keeps, in Placement's field names.
COLUMNS = (*PLACED_COLUMNS, "weight", "group")
TABLE = Placement._meta.db_table
# Placement's columns in the order a loaded row gives them: the job, positions.db's COLUMNS
# (its id is the placement's number), the folded name.
FIELDS = tuple(
    Placement._meta.get_field(field).column
    for field in ("placement_set", "number", *COLUMNS[1:], "name_folded")
)


@dataclass(frozen=True)
class PositionsFile:
    """What the table takes from one positions.db."""

    canvas_width: float
    canvas_height: float
    rows: list[tuple]
    groups: list[str]  # the job's groups in spreadsheet order ([] without groups)


def positions_file_read(path: Path) -> PositionsFile:
    """The canvas size, every placement (COLUMNS order, by id) and the groups of a
    positions.db: its meta.groups (every region, even one a revision left without names)."""
    width, height = canvas_size(path)
    groups = [region["group"] for region in json.loads(read_meta(path).get("groups", "[]"))]
    # (a positions.db written before names had weights answers 1 for each, one without
    # groups "" for each: ADDED_LATER)
    return PositionsFile(width, height, read_word_rows(path, COLUMNS), groups)


def placements_store(*, job_id: str, positions: PositionsFile) -> None:
    """The job's placements, replacing any it had (a job run again): call inside the
    transaction that marks the job done, so the two commit together."""
    with transaction.atomic():
        Placement.objects.filter(placement_set_id=job_id).delete()  # one DELETE, no fetch
        PlacementSet.objects.filter(job_id=job_id).delete()
        _insert(job_id, positions)


def _insert(job_id: str, positions: PositionsFile) -> PlacementSet:
    placement_set = PlacementSet.objects.create(
        job_id=job_id,
        canvas_width=positions.canvas_width,
        canvas_height=positions.canvas_height,
        groups=positions.groups,
    )
    columns = ", ".join(map(connection.ops.quote_name, FIELDS))  # "group" is an SQL word
    with connection.cursor() as cursor:
        rows = ((job_id, *row, row[1].lower()) for row in positions.rows)
        if connection.vendor == "postgresql":
            # COPY: 100,000 rows in 5 s (0.2 s of the worker's CPU) on a busy machine, where
            # bulk_create took 14 s (4.4 s of CPU) and executemany 19 s.
            with cursor.cursor.copy(f"COPY {TABLE} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(FIELDS))
            cursor.executemany(f"INSERT INTO {TABLE} ({columns}) VALUES ({marks})", rows)
    return placement_set


def placement_set_get(job_id: str) -> PlacementSet:
    """The job's placements in the table. A job with none there yet is looked up (404 `job
    not found`) and loaded from its positions.db (404 `artifact not ready` without it);
    lookups arriving together on it load it once: the others wait on the first one's
    PlacementSet row and read what it committed. A loaded job is a finished one, so a
    lookup of it costs one query here, not three."""
    job_id_checked(job_id)  # 404 for anything but 32 hex characters, before any query
    found = PlacementSet.objects.filter(job_id=job_id).first()
    if found is not None:
        return found
    job_get(job_id)
    positions = positions_file_read(artifact_path(job_id, "db"))
    try:
        with transaction.atomic():
            return _insert(job_id, positions)
    except IntegrityError:
        return PlacementSet.objects.get(job_id=job_id)
