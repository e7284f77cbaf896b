"""Settings for every environment; production values come from environment variables.

Embedded defaults (no variable set) give a working single machine: SQLite, django-q2's ORM
broker, in-process channel layer, files under ./media.
"""
import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me-in-production-0123456789")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "*").split(",")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "drf_spectacular",
    "django_q",
    "channels",
    "wordclouds",
    "commerce",
    "exports",
]

MIDDLEWARE = [
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.errors.ApiErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and converter share one SQLite file: wait for locks instead of failing,
    # and let readers run beside the writer.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

# Upload limits (bytes); each answered with 413 naming the field.
DATA_UPLOAD_MAX_MEMORY_SIZE = 30 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
NAME_LIST_MAX_BYTES = 20 * 1024 * 1024
MASK_IMAGE_MAX_BYTES = 25 * 1024 * 1024
MASK_IMAGE_MAX_PIXELS = 50_000_000
FONT_MAX_BYTES = 50 * 1024 * 1024
ASSET_MAX_BYTES = 50 * 1024 * 1024
SVG_EXPORT_MAX_BYTES = 25 * 1024 * 1024

# Admin login for the lookup and orders pages.
ORDERS_ADMIN_PASSWORD_DEFAULT = "wordcloud-admin"
ORDERS_ADMIN_PASSWORD = os.environ.get("ORDERS_ADMIN_PASSWORD", ORDERS_ADMIN_PASSWORD_DEFAULT)
ADMIN_TOKEN_MAX_AGE = int(os.environ.get("ADMIN_TOKEN_MAX_AGE", 12 * 3600))

# The SVG -> legacy Illustrator converter (its own process, loopback only).
CONVERTER_HOST = os.environ.get("CONVERTER_HOST", "127.0.0.1")
CONVERTER_PORT = int(os.environ.get("CONVERTER_PORT", 8010))

# The identity platform of the mini-program (commerce end-user login).
IDENTITY_PLATFORM_URL = os.environ.get("IDENTITY_PLATFORM_URL", "https://api.weixin.qq.com")
IDENTITY_APP_ID = os.environ.get("IDENTITY_APP_ID", "")
IDENTITY_APP_SECRET = os.environ.get("IDENTITY_APP_SECRET", "")
IDENTITY_TIMEOUT = float(os.environ.get("IDENTITY_TIMEOUT", 5))
# Lifetime (seconds) of the signed end-user token from POST /api/auth/login.
COMMERCE_USER_TOKEN_MAX_AGE = int(os.environ.get("COMMERCE_USER_TOKEN_MAX_AGE", 7 * 24 * 3600))

REDIS_URL = os.environ.get("REDIS_URL", "")

Q_CLUSTER = {
    # Q_NAME keeps the queues of separate installations (or test runs) sharing one Redis apart.
    "name": os.environ.get("Q_NAME", "wordclouds"),
    "workers": int(os.environ.get("Q_WORKERS", 1)),
    "timeout": 3600,
    "retry": 3700,
    "max_attempts": 1,
    "catch_up": False,
    "poll": 0.2,
    "ack_failures": True,
}
if REDIS_URL:
    Q_CLUSTER["redis"] = REDIS_URL
else:
    Q_CLUSTER["orm"] = "default"

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # Job event streams are woken through this layer; a Redis that is down must not
            # hold a stream or the worker for long.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_connect_timeout": 2}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Job liveness and the job event stream (docs/architecture.md): a running job's worker
# touches it every JOB_HEARTBEAT_SECONDS; a running job untouched for JOB_STALE_SECONDS is
# failed. SSE streams poll the event table every EVENTS_POLL_SECONDS (woken at once through
# Redis when REDIS_URL is set) and send a keep-alive comment every EVENTS_KEEPALIVE_SECONDS.
JOB_HEARTBEAT_SECONDS = float(os.environ.get("JOB_HEARTBEAT_SECONDS", 5))
JOB_STALE_SECONDS = float(os.environ.get("JOB_STALE_SECONDS", 30))
EVENTS_POLL_SECONDS = float(os.environ.get("EVENTS_POLL_SECONDS", 0.5))
EVENTS_KEEPALIVE_SECONDS = float(os.environ.get("EVENTS_KEEPALIVE_SECONDS", 10))

CORS_ALLOW_ALL_ORIGINS = True
CORS_URLS_REGEX = r"^/api/.*$"

REST_FRAMEWORK = {
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.MultiPartParser",
        "rest_framework.parsers.FormParser",
    ],
    "UNAUTHENTICATED_USER": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Word-cloud poster service",
    "DESCRIPTION": "Word-cloud jobs, lookups, exports, posters and orders. See docs/api.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # The job event stream is a plain async view, which drf-spectacular cannot see.
        "wordclouds.api.job_events.document_event_stream",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # httpx logs every request URL at INFO; identity-platform URLs carry the app secret.
    "loggers": {"httpx": {"level": "WARNING"}},
}
