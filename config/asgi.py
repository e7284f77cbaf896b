"""The ASGI application daphne serves: channels' protocol router over Django's HTTP app
(the job event streams are async Django views; channels carries their wake-ups)."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_http = get_asgi_application()  # sets Django up before channels is imported

from channels.routing import ProtocolTypeRouter  # noqa: E402

application = ProtocolTypeRouter({"http": django_http})
