# One module per area; importing them registers their ModelAdmins.
from . import assets, jobs  # noqa: F401
