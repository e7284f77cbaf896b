"""Progress reporting by stage, for a run (generate.py) and a revision (revision/revise.py)."""

import time


class Progress:
    """Reports ``(stage, percent, message)`` to a callback through ``stages`` (stage: its
    percent at start and end), never letting percent go down, and times each stage."""

    def __init__(self, callback, stages):
        self.callback = callback or (lambda stage, percent, message: None)
        self.stages = stages
        self.percent = 0
        self.stage = None
        self.started = time.perf_counter()
        self.seconds = {}

    def begin(self, stage: str, message: str) -> None:
        """Close the current stage and start ``stage``."""
        now = time.perf_counter()
        if self.stage:
            self.seconds[self.stage] = round(now - self.started, 3)
        self.stage, self.started = stage, now
        self.update(0.0, message)

    def update(self, fraction: float, message: str) -> None:
        """Report progress ``fraction`` (0–1) through the current stage."""
        low, high = self.stages[self.stage]
        self.percent = max(self.percent, int(low + (high - low) * min(1.0, fraction)))
        self.callback(self.stage, self.percent, message)

    def finish(self, message: str) -> None:
        """Close the last stage at 100 percent."""
        self.update(1.0, message)
        self.seconds[self.stage] = round(time.perf_counter() - self.started, 3)
