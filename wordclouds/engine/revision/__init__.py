"""A revision of a finished layout: names added, removed, renamed, moved, resized and
recoloured, areas kept free, while every word no edit needs keeps its place, its row in the
position database and its ``<path>`` in both SVGs byte for byte.

The parent's occupancy is rebuilt from the path data of the words that stay (the very points
its PNG was painted from, restamp.py; only the words that move are shaped again), and the
words an edit needs are placed again: pinned words (moved, resized) where asked, renamed
words where they were when the new name fits there, displaced words (under a pinned word or
a keep-out shape, or a renamed word that no longer fits) as near as possible to where they
were, added names wherever there is room. The files are written from the parent's own lines
and rows, with new ones only for what changed.

The rooms: ``edits`` (the edits checked), ``parent`` (the parent's files and the checks that
read them), ``arrange`` (the placing), ``files`` (the revised files and the proof) and
``revise`` (the whole revision, start to end).
"""

from .edits import check_edits
from .files import PROOF
from .parent import Parent
from .revise import REVISION_STAGES, revise

__all__ = ["PROOF", "REVISION_STAGES", "Parent", "check_edits", "revise"]
