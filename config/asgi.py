"""The ASGI application daphne serves: channels' protocol router over Django's HTTP app, with
`/api/health` and the job event streams served in front of Django, on the event loop
(core/endpoints.py says why; channels carries the streams' wake-ups; config/urls.py lists
them with every other route), every request given its id and counted in the metrics
(core/request_ids.py). Daphne's HTTP layer is held to the service's limits here
(core/http_limits.py). Listening where others reach it, it refuses to start on a built-in
secret (core/built_in_secrets.py)."""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_http = get_asgi_application()  # sets Django up before channels is imported

from core.built_in_secrets import built_in_secrets_refused  # noqa: E402
from core.processes import web_listens_on  # noqa: E402

built_in_secrets_refused(process="web", hosts=web_listens_on(sys.argv))

from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from config.urls import in_front_of_django  # noqa: E402
from core.endpoints import in_front_of  # noqa: E402
from core.http_limits import limit_http_server  # noqa: E402
from core.request_ids import with_request_ids  # noqa: E402
from wordclouds.engine.path_data import path_segments  # noqa: E402

application = ProtocolTypeRouter(
    {"http": with_request_ids(in_front_of(django_http, in_front_of_django))}
)
limit_http_server()

# The event loop serves every request of the process, so nothing may stall it for long:
# the URLconf (every view and what it imports) and the channel layer are loaded now, not by
# the first request or event stream (the imports took 0.1-0.3 s), and what start-up made
# is left out of the garbage collector's full collections (each went through some 200,000
# objects, 0.1 s and more on a busy machine).
_ = get_resolver().url_patterns
get_channel_layer()
# The compiled path reader (numba's code, from its cache on disk) is loaded once, now: the
# heavy requests that read path data (custom.svg, analyze-line-spacing) run in forked
# children, and each child loaded it again (0.25-0.3 s of CPU per request).
path_segments(["M0 0L1 0Z"])
gc.freeze()
# A thread running Python (a request's form or upload parsed, say) hands the interpreter lock
# over after 1 ms, not 5, when another thread waits for it: the event loop and health's thread
# wait that much less behind it (a 600 KB form held health for 142 ms on a busy machine, 63 ms
# with this).
sys.setswitchinterval(0.001)
