"""Settings for every environment; production values come from environment variables.

Embedded defaults (no variable set) give a working single machine: SQLite, django-q2's ORM
broker, in-process channel layer, files under ./media.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from corsheaders.defaults import default_headers
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy

from core.addresses import networks_setting
from core.security import origin_of
from core.throttle_rates import throttle_rates

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# The built-in key is for a loopback development run only: listening where others reach it,
# or with HTTPS=1, the web process, the worker and runall refuse to start while it (or the
# built-in admin password) is in use (core/built_in_secrets.py), and `manage.py check --deploy`
# fails on it (wordclouds.E002): anyone who read the code could forge admin and end-user tokens.
SECRET_KEY_DEFAULT = "dev-only-insecure-key-change-me-in-production-0123456789"
SECRET_KEY = os.environ.get("SECRET_KEY", SECRET_KEY_DEFAULT)
DEBUG = env_bool("DEBUG", False)
# Where clients reach the service (scheme://host[:port], e.g. https://posters.example): share
# links and QR codes are made from it, never from a request's Host header. Unset: the
# request's own address, which ALLOWED_HOSTS's default limits to loopback.
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").rstrip("/")
_public = urlsplit(PUBLIC_BASE_URL)
if PUBLIC_BASE_URL and (
    _public.scheme not in ("http", "https") or not _public.hostname or _public.path
):
    raise ImproperlyConfigured(
        f"PUBLIC_BASE_URL: {PUBLIC_BASE_URL!r} is not scheme://host[:port] "
        "(e.g. https://posters.example)"
    )
# The host names a request may carry: loopback plus PUBLIC_BASE_URL's host, unless set
# (comma-separated; `*` lets any through).
_public_host = _public.hostname or ""
ALLOWED_HOSTS = [
    host.strip() for host in os.environ.get("ALLOWED_HOSTS", "").split(",") if host.strip()
] or ["127.0.0.1", "localhost", "[::1]"] + (
    [f"[{_public_host}]" if ":" in _public_host else _public_host] if _public_host else []
)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "servestatic",
    "corsheaders",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_q",
    "channels",
    "core",
    "wordclouds",
    "commerce",
    "exports",
]

MIDDLEWARE = [
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files come from the service itself, under daphne, in every mode (no CDN).
    "servestatic.middleware.ServeStaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The pages' language: the set_language cookie, else the browser's Accept-Language
    # (docs/i18n.md); API bodies stay English whatever it picks.
    "core.i18n.PagesLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Who may call each route, before its view (core/access.py; after the session's user).
    "core.access.AccessMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "core.security.ContentSecurityPolicyMiddleware",
    "core.request_ids.RouteMiddleware",
    "core.errors.ApiErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # templates/: the page shell (base.html) every app's pages extend.
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.request_ids.context",
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

# The pages and the admin speak Simplified Chinese or English (docs/i18n.md): the language
# comes from the switch on every page (a cookie), else from the browser's Accept-Language,
# else English (LANGUAGE_CODE). The catalogs are locale/<lang>/LC_MESSAGES/django.po and djangojs.po;
# the Makefile's set-up compiles them (`make messages`).
LANGUAGE_CODE = "en"
LANGUAGES = [("zh-hans", "Simplified Chinese"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
# Dates and times on the pages and in the admin are shown in the shop's time zone; they are
# stored in UTC (USE_TZ).
TIME_ZONE = os.environ.get("SHOP_TIME_ZONE", "Asia/Shanghai")
USE_TZ = True

STATIC_URL = "static/"
# Filled by `manage.py collectstatic` (the Makefile's set-up) and served by servestatic; with
# DEBUG on, servestatic also reads the apps' static folders directly.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "var" / "static"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
# This process's own working files (job inputs and outputs while a job runs, the cache of
# stored files read): never shared, may be emptied whenever the process is stopped.
SCRATCH_ROOT = Path(os.environ.get("SCRATCH_ROOT", BASE_DIR / "var" / "scratch"))
# The cache of stored files read (fonts, assets, positions databases) in SCRATCH_ROOT/cache,
# with S3 only: trimmed to this size, the files read longest ago first; a file read within
# the grace time stays.
SCRATCH_CACHE_MAX_MB = int(os.environ.get("SCRATCH_CACHE_MAX_MB", 2048))
SCRATCH_CACHE_GRACE_SECONDS = float(os.environ.get("SCRATCH_CACHE_GRACE_SECONDS", 300))

# Files (inputs, artifacts, fonts, assets): an S3-compatible bucket when S3_BUCKET is set,
# else MEDIA_ROOT (wordclouds/storage.py; docs/settings.md). The web process's alias gives up
# on a store that does not answer within STORAGE_TIMEOUT_SECONDS (503 file storage
# unavailable); the worker's waits longer and retries more.
S3_BUCKET = os.environ.get("S3_BUCKET", "")
S3_ENDPOINT_URL = os.environ.get("S3_ENDPOINT_URL", "")
S3_PUBLIC_ENDPOINT_URL = os.environ.get("S3_PUBLIC_ENDPOINT_URL", "") or S3_ENDPOINT_URL
S3_ACCESS_KEY_ID = os.environ.get("S3_ACCESS_KEY_ID", "")
S3_SECRET_ACCESS_KEY = os.environ.get("S3_SECRET_ACCESS_KEY", "")
S3_REGION = os.environ.get("S3_REGION", "us-east-1")
S3_URL_SECONDS = int(os.environ.get("S3_URL_SECONDS", 300))
STORAGE_TIMEOUT_SECONDS = float(os.environ.get("STORAGE_TIMEOUT_SECONDS", 1))
STORAGE_RETRIES = int(os.environ.get("STORAGE_RETRIES", 1))
STORAGE_WORKER_TIMEOUT_SECONDS = float(os.environ.get("STORAGE_WORKER_TIMEOUT_SECONDS", 20))
STORAGE_WORKER_RETRIES = int(os.environ.get("STORAGE_WORKER_RETRIES", 3))
# A worker whose store fails keeps the job waiting (stage waiting_for_storage) and tries
# again, after 1, 2, 4... s and at most STORAGE_BACKOFF_MAX_SECONDS apart, for this long
# before it fails the job.
STORAGE_WAIT_SECONDS = float(os.environ.get("STORAGE_WAIT_SECONDS", 300))
STORAGE_BACKOFF_MAX_SECONDS = float(os.environ.get("STORAGE_BACKOFF_MAX_SECONDS", 10))


def _files_storage(timeout: float, retries: int) -> dict:
    if not S3_BUCKET:
        return {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"allow_overwrite": True},  # in MEDIA_ROOT
        }
    from botocore.config import Config

    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": S3_BUCKET,
            "endpoint_url": S3_ENDPOINT_URL or None,
            "access_key": S3_ACCESS_KEY_ID,
            "secret_key": S3_SECRET_ACCESS_KEY,
            "region_name": S3_REGION,
            "file_overwrite": True,
            "default_acl": None,
            "client_config": Config(
                signature_version="s3v4",
                s3={"addressing_style": "path"},
                connect_timeout=timeout,
                read_timeout=timeout,
                retries={"total_max_attempts": retries + 1, "mode": "standard"},
            ),
        },
    }


STORAGES = {
    "default": _files_storage(STORAGE_TIMEOUT_SECONDS, STORAGE_RETRIES),
    "worker": _files_storage(STORAGE_WORKER_TIMEOUT_SECONDS, STORAGE_WORKER_RETRIES),
    # Compressed copies, names without hashes: templates render before any collectstatic.
    "staticfiles": {"BACKEND": "servestatic.storage.CompressedStaticFilesStorage"},
}

# Upload limits (bytes); each answered with 413 naming the field.
DATA_UPLOAD_MAX_MEMORY_SIZE = 30 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
NAME_LIST_MAX_BYTES = 20 * 1024 * 1024
MASK_IMAGE_MAX_BYTES = 25 * 1024 * 1024
MASK_IMAGE_MAX_PIXELS = 50_000_000
# A mask smaller than this a side draws nothing useful (and makes a canvas that small).
MASK_MIN_SIDE = int(os.environ.get("MASK_MIN_SIDE", 16))
FONT_MAX_BYTES = 50 * 1024 * 1024
ASSET_MAX_BYTES = 50 * 1024 * 1024
SVG_EXPORT_MAX_BYTES = 25 * 1024 * 1024

# Admin login for the lookup and orders pages.
ORDERS_ADMIN_PASSWORD_DEFAULT = "wordcloud-admin"
ORDERS_ADMIN_PASSWORD = os.environ.get("ORDERS_ADMIN_PASSWORD", ORDERS_ADMIN_PASSWORD_DEFAULT)
ADMIN_TOKEN_MAX_AGE = int(os.environ.get("ADMIN_TOKEN_MAX_AGE", 12 * 3600))

# Who may call each route (config/access.py, docs/security.md). JOBS_NEED_LOGIN: creating a
# job needs a customer's or the admin token (anonymous jobs otherwise, as the README's curl).
ACCESS_TABLE = "config.access.ROUTES"
JOBS_NEED_LOGIN = env_bool("JOBS_NEED_LOGIN", False)

# The SVG -> legacy Illustrator converter (its own process, loopback only).
CONVERTER_HOST = os.environ.get("CONVERTER_HOST", "127.0.0.1")
CONVERTER_PORT = int(os.environ.get("CONVERTER_PORT", 8010))

# The identity platform of the mini-program (commerce end-user login).
IDENTITY_PLATFORM_URL = os.environ.get("IDENTITY_PLATFORM_URL", "https://api.weixin.qq.com")
IDENTITY_APP_ID = os.environ.get("IDENTITY_APP_ID", "")
IDENTITY_APP_SECRET = os.environ.get("IDENTITY_APP_SECRET", "")
IDENTITY_TIMEOUT = float(os.environ.get("IDENTITY_TIMEOUT", 5))
# Local development only: `make run` also starts a stand-in identity platform on loopback
# (commerce/identity_standin.py, any code logs in) and the client talks to it. Refused by a
# system check (commerce.E001) unless DEBUG is on.
IDENTITY_STANDIN = env_bool("IDENTITY_STANDIN", False)
IDENTITY_STANDIN_PORT = int(os.environ.get("IDENTITY_STANDIN_PORT", 8020))
if IDENTITY_STANDIN:
    IDENTITY_PLATFORM_URL = f"http://127.0.0.1:{IDENTITY_STANDIN_PORT}"
# WeChat Pay (APIv3, JSAPI) for paying orders from the mini-program (docs/commerce.md,
# "Payments"); the app id is IDENTITY_APP_ID. commerce.E010 names a missing or malformed one.
WECHATPAY_BASE_URL = os.environ.get("WECHATPAY_BASE_URL", "https://api.mch.weixin.qq.com")
WECHATPAY_MCH_ID = os.environ.get("WECHATPAY_MCH_ID", "")
# The serial number of the merchant's API certificate (its private key signs our requests).
WECHATPAY_MCH_SERIAL = os.environ.get("WECHATPAY_MCH_SERIAL", "")
WECHATPAY_MCH_PRIVATE_KEY_FILE = os.environ.get("WECHATPAY_MCH_PRIVATE_KEY_FILE", "")
# The platform's public key (PEM) and its id (PUB_KEY_ID_...): every answer and notify is
# verified against it.
WECHATPAY_PUBLIC_KEY_FILE = os.environ.get("WECHATPAY_PUBLIC_KEY_FILE", "")
WECHATPAY_PUBLIC_KEY_ID = os.environ.get("WECHATPAY_PUBLIC_KEY_ID", "")
WECHATPAY_APIV3_KEY = os.environ.get("WECHATPAY_APIV3_KEY", "")
WECHATPAY_NOTIFY_URL = os.environ.get("WECHATPAY_NOTIFY_URL", "")
WECHATPAY_TIMEOUT = float(os.environ.get("WECHATPAY_TIMEOUT", 5))
# Seconds from an order's creation during which it can be paid; then reconciliation closes
# its attempts and cancels it.
WECHATPAY_PAY_WINDOW = int(os.environ.get("WECHATPAY_PAY_WINDOW", 1800))
# Reconciliation queries an open attempt that had no answer for this many seconds.
WECHATPAY_QUERY_AFTER = float(os.environ.get("WECHATPAY_QUERY_AFTER", 120))
# Local development only: `make run` also starts the stand-in payment platform on loopback
# (`manage.py wechatpay_standin`, keys made under var/wechatpay-standin) and every setting
# above points at it. Refused by a system check (commerce.E002) unless DEBUG is on.
WECHATPAY_STANDIN = env_bool("WECHATPAY_STANDIN", False)
WECHATPAY_STANDIN_PORT = int(os.environ.get("WECHATPAY_STANDIN_PORT", 8030))
WECHATPAY_STANDIN_DIR = Path(
    os.environ.get("WECHATPAY_STANDIN_DIR", BASE_DIR / "var" / "wechatpay-standin")
)
if WECHATPAY_STANDIN:
    WECHATPAY_BASE_URL = f"http://127.0.0.1:{WECHATPAY_STANDIN_PORT}"
    WECHATPAY_MCH_ID = WECHATPAY_MCH_ID or "1900000109"
    WECHATPAY_MCH_SERIAL = WECHATPAY_MCH_SERIAL or "5157F09EFDC096DE15EBE81A47057A72"
    WECHATPAY_MCH_PRIVATE_KEY_FILE = str(WECHATPAY_STANDIN_DIR / "merchant_private_key.pem")
    WECHATPAY_PUBLIC_KEY_FILE = str(WECHATPAY_STANDIN_DIR / "platform_public_key.pem")
    WECHATPAY_PUBLIC_KEY_ID = "PUB_KEY_ID_0000000000STANDIN"
    WECHATPAY_APIV3_KEY = "standin-apiv3-key-for-local-dev0"
    WECHATPAY_NOTIFY_URL = WECHATPAY_NOTIFY_URL or (
        f"http://127.0.0.1:{os.environ.get('PORT', 8000)}/api/payments/wechat/notify"
    )
    IDENTITY_APP_ID = IDENTITY_APP_ID or "wx-standin-app"
# Proofs (docs/proofs.md): on, a design list's job must be the approved newest version of its
# proof to be submitted or ordered, and production draws only from the approved files.
PROOF_APPROVAL_REQUIRED = env_bool("PROOF_APPROVAL_REQUIRED", True)
# Lifetime (seconds) of the signed end-user token from POST /api/auth/login.
COMMERCE_USER_TOKEN_MAX_AGE = int(os.environ.get("COMMERCE_USER_TOKEN_MAX_AGE", 7 * 24 * 3600))

REDIS_URL = os.environ.get("REDIS_URL", "")

# Django's cache holds the throttles' counts (core/throttles.py), which every web process
# shares: Redis at CACHE_URL, else at REDIS_URL, else the database's table django_cache (made
# by `manage.py migrate`). Q_NAME prefixes the keys, as it names the queues, so installations
# (or test runs) sharing one Redis count apart; the cache's clear() would empty its whole Redis
# database, the queue's too when that is REDIS_URL's: nothing of the service calls it.
Q_NAME = os.environ.get("Q_NAME", "wordclouds")
CACHE_URL = os.environ.get("CACHE_URL", "") or REDIS_URL
DATABASE_CACHE_TABLE = "django_cache"  # made by every migrate, whichever cache is in use
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": Q_NAME,
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": DATABASE_CACHE_TABLE,
            # Past this many keys a write deletes a third of them: counts would be forgotten.
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
# Abuse bounds (docs/settings.md, "Throttles"): per-client rates by scope, counted by the
# client's address (X-Forwarded-For only from a trusted proxy) or user; staff never count.
THROTTLE_RATES = throttle_rates(os.environ.get("THROTTLE_RATES", ""))
TRUSTED_PROXIES = networks_setting("TRUSTED_PROXIES", os.environ.get("TRUSTED_PROXIES", ""))
# A client's queued plus running jobs (revisions too) at most; one more answers 429.
MAX_QUEUED_PER_CLIENT = int(os.environ.get("MAX_QUEUED_PER_CLIENT", 10))

# Behind a reverse proxy that terminates TLS and sets X-Forwarded-Proto (deploy/nginx.conf):
# requests it marks https count as secure. Only with a proxy that overwrites the header.
if env_bool("TRUST_PROXY_HEADERS", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Served behind TLS (docs/deploy.md, "TLS"): plain HTTP is redirected to HTTPS (but health and
# the metrics scrape, which the proxy and Prometheus ask over the stack's own network), HSTS,
# and the session and CSRF cookies only over HTTPS. The proxy terminates TLS, so its
# X-Forwarded-Proto is trusted.
HTTPS = env_bool("HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^api/health$", r"^metrics$"]
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 365 * 24 * 3600))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
# The Content-Security-Policy of every page allows the service's own files, and images and
# downloads from these origins too: the file store's public address, where file URLs point.
CSP_EXTRA_ORIGINS = sorted(
    {origin_of(S3_PUBLIC_ENDPOINT_URL) if S3_BUCKET else ""}
    | set(os.environ.get("CSP_EXTRA_ORIGINS", "").split(",")) - {""}
)

Q_CLUSTER = {
    # Q_NAME keeps the queues of separate installations (or test runs) sharing one Redis apart.
    "name": Q_NAME,
    # the admin's name for its tasks (django_q's app verbose_name; its own is "Django Q")
    "label": gettext_lazy("Task queue"),
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
# Jobs older than this many days are deleted with their files and events by the worker's
# daily retention run, unless kept or referred to (docs/deploy.md, "Retention"); 0: never.
JOB_RETENTION_DAYS = int(os.environ.get("JOB_RETENTION_DAYS", 180))
EVENTS_POLL_SECONDS = float(os.environ.get("EVENTS_POLL_SECONDS", 0.5))
EVENTS_KEEPALIVE_SECONDS = float(os.environ.get("EVENTS_KEEPALIVE_SECONDS", 10))
# The reconnect delay (ms) a stream suggests to EventSource clients (`retry:`).
EVENTS_RETRY_MS = int(os.environ.get("EVENTS_RETRY_MS", 3000))
# Database reads of event streams running at once per web process (each closes its
# connection), which bounds the connections streams use however many are open.
EVENTS_DB_READERS = int(os.environ.get("EVENTS_DB_READERS", 8))

# Hostile input and faults (docs/architecture.md, "Bounds"). Request limits below Django,
# answered in JSON by the HTTP layer (core/http_limits.py): the request line plus headers (431), and
# a whole request body, multipart included (413; the largest job, a name list, mask and font
# at their limits, is 95 MB).
REQUEST_HEADERS_MAX_BYTES = int(os.environ.get("REQUEST_HEADERS_MAX_BYTES", 16 * 1024))
REQUEST_BODY_MAX_BYTES = int(os.environ.get("REQUEST_BODY_MAX_BYTES", 100 * 1024 * 1024))
# Django's own: at most this many form fields and file parts per request (400).
DATA_UPLOAD_MAX_NUMBER_FIELDS = int(os.environ.get("DATA_UPLOAD_MAX_NUMBER_FIELDS", 1000))
DATA_UPLOAD_MAX_NUMBER_FILES = int(os.environ.get("DATA_UPLOAD_MAX_NUMBER_FILES", 100))
# Heavy requests (project renders, custom.svg, line spacing) run in a forked child of the web
# process, killed after this many seconds or when it needs more memory (422 either way).
HEAVY_TIME_LIMIT_SECONDS = float(os.environ.get("HEAVY_TIME_LIMIT_SECONDS", 30))
HEAVY_MEMORY_LIMIT_MB = int(os.environ.get("HEAVY_MEMORY_LIMIT_MB", 1024))
# At most this many heavy children at once per web process; more wait for a slot, at most
# HEAVY_WAIT_SECONDS (then 503 with Retry-After).
HEAVY_CONCURRENCY = int(os.environ.get("HEAVY_CONCURRENCY", 4))
HEAVY_WAIT_SECONDS = float(os.environ.get("HEAVY_WAIT_SECONDS", 10))
# A lookup by name (locations, find) answers at most this many matches, the first by id;
# `total` still counts all of them. An empty name answers every placement.
LOOKUP_MATCHES_MAX = int(os.environ.get("LOOKUP_MATCHES_MAX", 1000))
# Lookups (locations, find) run on this many threads per web process, each keeping its
# database connection between requests (wordclouds/api/lookup_front.py).
LOOKUP_DB_READERS = int(os.environ.get("LOOKUP_DB_READERS", 4))
# The press profiles of the print PDF (docs/exports.md, "Profiles"), put there by
# `make profiles` (deploy/icc-profiles.sh) from Debian's icc-profiles package.
ICC_PROFILE_DIR = Path(os.environ.get("ICC_PROFILE_DIR", BASE_DIR / "var" / "icc-profiles"))
# A project render draws at most this many pixels: stickers at their box size plus the
# decoded pixels of their raster assets (422 beyond).
RENDER_MAX_PIXELS = int(os.environ.get("RENDER_MAX_PIXELS", 300_000_000))
# The worker's supervisor (manage.py runcluster) pings the cluster through the broker every
# WORKER_PING_SECONDS and restarts it when a ping waits WORKER_STALL_SECONDS while no running
# job beats; /api/health answers 503 when no worker was seen for WORKER_DEAD_SECONDS.
WORKER_PING_SECONDS = float(os.environ.get("WORKER_PING_SECONDS", 5))
WORKER_STALL_SECONDS = float(os.environ.get("WORKER_STALL_SECONDS", 20))
# ...or, before its first answer since it (re)started, this long (its workers warm up first).
WORKER_START_SECONDS = float(os.environ.get("WORKER_START_SECONDS", 120))
WORKER_DEAD_SECONDS = float(os.environ.get("WORKER_DEAD_SECONDS", 60))

# Metrics (core/metrics.py, docs/deploy.md): with PROMETHEUS_MULTIPROC_DIR set, every process
# writes its counts to files there, summed by each scrape (runall sets it to var/prometheus/<port>
# and empties it when it starts). It must exist before any process counts anything.
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True, exist_ok=True)
# The worker's supervisor (runcluster) serves its counts on this port when set (a worker in
# a container of its own); 0: not served (under runall the web's /metrics has them).
METRICS_PORT = int(os.environ.get("METRICS_PORT", 0))
# GET /metrics (core/metrics.py) answers a request with the admin token, or from one of these
# addresses or networks (comma-separated, e.g. 10.0.0.0/8 for the monitoring network). Read
# here, so a wrong entry stops the process at start with its name, never a scrape with a 500.
METRICS_ALLOWED_IPS = networks_setting(
    "METRICS_ALLOWED_IPS", os.environ.get("METRICS_ALLOWED_IPS", "")
)

CORS_ALLOW_ALL_ORIGINS = True
CORS_URLS_REGEX = r"^/api/.*$"
# A client that resumes an event stream with fetch() sends Last-Event-ID across origins.
CORS_ALLOW_HEADERS = (*default_headers, "last-event-id")
# A client across origins may read the request id of an answer (docs/architecture.md).
CORS_EXPOSE_HEADERS = ["x-request-id"]

REST_FRAMEWORK = {
    "EXCEPTION_HANDLER": "core.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "core.schema.AutoSchema",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "core.negotiation.AnyAccept",
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # The routes config/urls.py's `throttled` names count against THROTTLE_RATES.
    "DEFAULT_THROTTLE_CLASSES": ["core.throttles.RouteThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.MultiPartParser",
        "rest_framework.parsers.FormParser",
    ],
    "UNAUTHENTICATED_USER": None,
}

SPECTACULAR_SETTINGS = {
    # The documentation pages' landing text, in the reader's language (docs/i18n.md); the
    # schema fetched without Accept-Language (clients, the contract tests) stays English.
    "TITLE": gettext_lazy("Word-cloud poster service"),
    "DESCRIPTION": gettext_lazy(
        "Word-cloud jobs, lookups, exports, posters and orders. See docs/api.md."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Upload fields are `format: binary` in request bodies (their own *Request components).
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI and ReDoc come from the service itself (drf-spectacular-sidecar), no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Named, not left to a hash: products' kind beside payments' and events' `kind` enums.
    "ENUM_NAME_OVERRIDES": {
        "ProductKindEnum": "commerce.models.Product.Kind",
        "JobStatusEnum": "wordclouds.models.Job.Status",
        "OrderStatusEnum": "commerce.models.Order.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # Health, the job event stream and the name lookups are served in front of Django
        # (core/endpoints.py), where drf-spectacular cannot see them.
        "wordclouds.api.health.document_health",
        "wordclouds.api.job_events.document_event_stream",
        "wordclouds.api.lookup_front.document_lookups",
        # Every operation's `security` from the access table (config/access.py).
        "core.access.document_access",
        # A declared query parameter sent empty takes its default (core/inputs_schema.py).
        "core.inputs_schema.document_empty_values",
        "core.schema.complete_errors",
    ],
}

# Every line carries the id of the request (or of the request that queued the task) it was
# written for (core/request_ids.py); LOG_FORMAT=json writes one JSON object a line.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "core.request_ids.RequestIdFilter"}},
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "core.request_ids.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "json" if LOG_FORMAT == "json" else "text",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # httpx logs every request URL at INFO; identity-platform URLs carry the app secret.
    "loggers": {"httpx": {"level": "WARNING"}},
}
