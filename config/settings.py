"""Settings, read from the environment only.

Two shapes:
- embedded default (no DATABASE_URL / REDIS_URL): SQLite in var/, tasks run eagerly, a local
  secret key generated once into var/ so nothing secret is committed;
- the real stack: DATABASE_URL=postgres://… and REDIS_URL=redis://… (PostgreSQL, Redis as broker
  and cache, a real Celery worker).
DJANGO_ENV=production refuses to start without DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("APP_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from exc


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def parse_database_url(url: str, default_conn_max_age: str = "60") -> dict:
    """postgres://user:pass@host:port/name?conn_max_age=60, or sqlite:///path."""
    parts = urlsplit(url)
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured("DATABASE_URL must name a database: postgres://…/NAME")
        query = parse_qs(parts.query)
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            # Persistent connections: one per worker thread, checked before reuse.
            "CONN_MAX_AGE": int(query.get("conn_max_age", [default_conn_max_age])[0]),
            "CONN_HEALTH_CHECKS": True,
            # Server-side binding lets psycopg prepare a query run five times on a connection, so
            # PostgreSQL plans the heavy list queries once per connection, not once per request.
            "OPTIONS": (
                {"server_side_binding": True, "prepare_threshold": 5}
                if query.get("prepared", ["1"])[0] == "1"
                else {}
            ),
        }
    if parts.scheme == "sqlite":
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": parts.path or ":memory:"}
    raise ImproperlyConfigured(f"DATABASE_URL scheme {parts.scheme!r} is not supported")


def oidc_form_action(sources: list[str], issuer: str) -> list[str]:
    """CSP form-action with the identity provider's origin: the sign-in button posts to the site,
    which answers with a redirect to the provider, and browsers apply form-action to it."""
    parts = urlsplit(issuer)
    origin = f"{parts.scheme}://{parts.netloc}"
    return sources if origin in sources else [*sources, origin]


def parse_email_url(url: str) -> dict:
    """EMAIL_URL into Django's email settings: smtp://user:pass@host:port (plain, port 25),
    smtp+tls:// (STARTTLS, port 587), smtps:// (TLS from the start, port 465), console:// (the
    log). User and password are URL-encoded (%40 for @)."""
    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    ports = {"smtp": 25, "smtp+tls": 587, "smtps": 465}
    if parts.scheme not in ports:
        raise ImproperlyConfigured(
            f"EMAIL_URL scheme {parts.scheme!r} is not supported (smtp, smtp+tls, smtps, console)"
        )
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL must name a host: smtp://user:pass@host:port")
    try:
        port = parts.port or ports[parts.scheme]
    except ValueError as exc:
        raise ImproperlyConfigured(f"EMAIL_URL has a bad port: {exc}") from exc
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": parts.scheme == "smtp+tls",
        "EMAIL_USE_SSL": parts.scheme == "smtps",
        "EMAIL_TIMEOUT": 20,
    }


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development").strip().lower()
if DJANGO_ENV not in {"development", "production", "test"}:
    raise ImproperlyConfigured("DJANGO_ENV must be development, production or test")
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DJANGO_DEBUG", False)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DJANGO_DEBUG cannot be on when DJANGO_ENV=production")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
if PRODUCTION:
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("DJANGO_ENV=production needs DJANGO_SECRET_KEY (50+ characters)")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ENV=production needs DJANGO_ALLOWED_HOSTS")
else:
    if not SECRET_KEY:
        # A per-checkout key, generated once and never committed (var/ is ignored by git).
        key_file = VAR_DIR / "dev-secret-key"
        if not key_file.exists():
            VAR_DIR.mkdir(parents=True, exist_ok=True)
            key_file.write_text(secrets.token_urlsafe(64))
        SECRET_KEY = key_file.read_text().strip()
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["localhost", "127.0.0.1", "[::1]", "testserver"]

CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "axes",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
    "allauth.usersessions",
    "apps.accounts",
    "apps.notifications",
    "apps.catalog",
    "apps.profiles",
    "apps.benchmarks",
    "apps.reviews",
    "apps.actuals",
    "apps.scoring",
    "apps.api",
    "apps.teams",
    "apps.method",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything reads a body: 413 for an API body over 2 MB (SPEC 6.2).
    "apps.web.body.BodyLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "allauth.usersessions.middleware.UserSessionsMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "apps.accounts.middleware.CurrentTeamMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, so that a lockout answers before any view runs.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.teams.context_processors.team_context",
            ],
        },
    }
]


def templates_stamp(*dirs: Path) -> str:
    """A hash of the templates' paths and modification times (what draws the markup)."""
    files = sorted(f for d in dirs for f in Path(d).rglob("*.html"))
    stamp = hashlib.sha256("".join(f"{f}:{f.stat().st_mtime_ns}" for f in files).encode())
    return stamp.hexdigest()[:12]


def _git_head() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],  # noqa: S607 - git from PATH, no input
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


# The release whose markup the cache holds: in every cached fragment's key (apps/web/fragments.py),
# so a deploy never serves the old one. A build sets RELEASE_ID; else the checkout's commit; else
# (no git) the templates' modification times.
RELEASE_ID = (
    os.environ.get("RELEASE_ID", "").strip()
    or _git_head()
    or templates_stamp(BASE_DIR / "templates")
)

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Tests use no persistent connections: live-server threads would keep the test DB busy.
    DATABASES = {
        "default": parse_database_url(
            DATABASE_URL, default_conn_max_age="0" if DJANGO_ENV == "test" else "60"
        )
    }
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {"timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's Redis cache, building its redis-py client once (apps/web/cache.py).
            "BACKEND": "apps.web.cache.ReusedClientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "csr"),
            "TIMEOUT": 3600,
            # A cache that is down must not take pages down with it.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # django-allauth: sign in by username or email, sign-up by invitation, OIDC single sign-on.
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "accounts:login"

# django-allauth (apps/accounts/adapters.py). Sign-up is closed except through an invitation, whose
# link proves the address (the account starts verified); other addresses are verified by email
# before they count. Every allauth email goes through the outbox. Lockout stays django-axes'
# (allauth's own failed-login limit is off so there is one rule, apps/accounts/lockout.py).
ACCOUNT_ADAPTER = "apps.accounts.adapters.AccountAdapter"
SOCIALACCOUNT_ADAPTER = "apps.accounts.adapters.SocialAccountAdapter"
ACCOUNT_FORMS = {
    "login": "apps.accounts.forms.LoginForm",
    "signup": "apps.accounts.forms.InvitationSignupForm",
    # The reset mail is made in the worker, known address or not: one answer time (issue 34).
    "reset_password": "apps.accounts.password_reset.ResetPasswordForm",
}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = ""
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if PRODUCTION else "http"
ACCOUNT_RATE_LIMITS = {"login_failed": False}
ACCOUNT_SIGNUP_REDIRECT_URL = "home"
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
SOCIALACCOUNT_AUTO_SIGNUP = True
SOCIALACCOUNT_LOGIN_ON_GET = False
SOCIALACCOUNT_STORE_TOKENS = False
USERSESSIONS_TRACK_ACTIVITY = False

# OpenID Connect single sign-on, configured from the environment (no database row): the issuer's
# URL (its /.well-known/openid-configuration is read), the client id and secret registered there,
# and the button's label.
OIDC_ISSUER = os.environ.get("OIDC_ISSUER", "").strip().rstrip("/")
SOCIALACCOUNT_PROVIDERS = {"openid_connect": {"OAUTH_PKCE_ENABLED": True, "APPS": []}}
if OIDC_ISSUER:
    _oidc_client_id = os.environ.get("OIDC_CLIENT_ID", "").strip()
    if not _oidc_client_id:
        raise ImproperlyConfigured("OIDC_ISSUER is set: OIDC_CLIENT_ID is needed too")
    SOCIALACCOUNT_PROVIDERS["openid_connect"]["APPS"] = [
        {
            "provider_id": "sso",
            "name": os.environ.get("OIDC_NAME", "").strip() or "Single sign-on",
            "client_id": _oidc_client_id,
            "secret": os.environ.get("OIDC_CLIENT_SECRET", ""),
            "settings": {"server_url": OIDC_ISSUER},
        }
    ]

# Brute-force protection (apps/accounts/lockout.py): failures per address across usernames and
# per username across addresses, except from an address the user signed in from before; a lock
# lasts 15 minutes.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = "apps.accounts.lockout.lockout_parameters"
AXES_CLIENT_IP_CALLABLE = "apps.accounts.client_ip.client_ip"
AXES_USERNAME_CALLABLE = "apps.accounts.lockout.account_username"  # DAVE and dave@… are dave
# The client's address (apps/accounts/client_ip.py), for axes, allauth's rate limits and its
# sessions list alike: how many reverse proxies of ours stand in front, each appending to
# X-Forwarded-For. 0 (nothing in front): REMOTE_ADDR. docker-compose.yml (Caddy): 1. Behind a load
# balancer and Caddy: 2. Never more than the proxies you run: the client would choose its address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more")
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_ENABLED = env_bool("AXES_ENABLED", True)

# Email (apps/accounts/outbox.py): rendered into an outbox row, sent by a Celery task after commit.
# EMAIL_URL picks the backend (smtp://, smtp+tls://, smtps://, console://); without it, development
# and production print emails to the log (console), tests keep them in memory (locmem).
# django-anymail (provider APIs) is an option documented in the README, not a dependency.
_email_url = os.environ.get("EMAIL_URL", "").strip()
if _email_url:
    globals().update(parse_email_url(_email_url))
elif DJANGO_ENV == "test":
    EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Compute reviews <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_RETRY_BASE_SECONDS = env_int("EMAIL_RETRY_BASE_SECONDS", 30)
# Webhooks and MLflow tracking servers the site calls (apps/web/outbound.py): private, loopback
# and link-local addresses are refused unless a deployment on a private network allows them.
OUTBOUND_ALLOW_PRIVATE = env_bool("OUTBOUND_ALLOW_PRIVATE", False)
# Or only some networks (comma-separated CIDRs, e.g. "10.20.0.0/16"); metadata addresses never.
OUTBOUND_ALLOWED_NETWORKS = [
    n.strip() for n in os.environ.get("OUTBOUND_ALLOWED_NETWORKS", "").split(",") if n.strip()
]

# Where the site is reached, for links in emails sent outside a request (notifications).
# Without SITE_URL: the address `make run` serves on (its PORT), so links in emails work locally.
_port = os.environ.get("PORT", "").strip() or "8000"
if not (_port.isascii() and _port.isdigit() and 0 < int(_port) < 65536):
    raise ImproperlyConfigured(f"PORT must be a port number (1 to 65535), got {_port!r}")
SITE_URL = (os.environ.get("SITE_URL", "").strip() or f"http://localhost:{_port}").rstrip("/")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One number format per language (config/formats): money and sizes grouped by thousands in both.
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Static files as production serves them (hashed names cached for a year, gzip and Brotli files
# made by collectstatic, served by WhiteNoise): in production, and under `make run`
# (scripts/run sets STATIC_AS_PRODUCTION), so a newcomer sees the real speed.
STATIC_AS_PRODUCTION = PRODUCTION or env_bool("STATIC_AS_PRODUCTION", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "apps.web.static_storage.StaticStorage"  # WhiteNoise's, each URL worked out once
            if STATIC_AS_PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Otherwise (tests, a bare runserver) WhiteNoise serves straight from static/ without collectstatic.
WHITENOISE_USE_FINDERS = not STATIC_AS_PRODUCTION
if not PRODUCTION:
    STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise expects it; empty until collectstatic
WHITENOISE_AUTOREFRESH = DEBUG and not STATIC_AS_PRODUCTION

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

# Content-Security-Policy (django-csp 4). No inline scripts anywhere: htmx is configured from its
# meta tag, charts are figure JSON in <script type="application/json"> drawn by static/js.
# plotly.js injects one <style> element (hence 'unsafe-inline' for style elements only; no page
# uses style="" attributes) and its PNG export uses a blob: image (tests/e2e/test_csp.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-elem": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}
if OIDC_ISSUER:
    CONTENT_SECURITY_POLICY["DIRECTIVES"]["form-action"] = oidc_form_action(
        CONTENT_SECURITY_POLICY["DIRECTIVES"]["form-action"], OIDC_ISSUER
    )

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True  # every cookie the site sets is Secure (issue 34)
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SAMESITE = "Lax"

# Celery. No task is lost: a message is acknowledged only after its task finished, a worker that
# dies returns its message to the queue, each worker reserves one message at a time, and Redis
# redelivers an unacknowledged message only after a visibility timeout above the longest task.
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600)
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 30
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", CELERY_TASK_TIME_LIMIT * 2)
if REDIS_URL and CELERY_VISIBILITY_TIMEOUT <= CELERY_TASK_TIME_LIMIT and not env_bool(
    "CELERY_ALLOW_SHORT_VISIBILITY"
):
    raise ImproperlyConfigured("CELERY_VISIBILITY_TIMEOUT must exceed CELERY_TASK_TIME_LIMIT")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    # Publishing must fail fast when the broker is down, so the request can keep a pending job.
    "max_retries": 0,
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BEAT_SCHEDULE = {
    "sweep-pending-snapshot-jobs": {"task": "scoring.sweep_pending_jobs_task", "schedule": 60.0},
    # A submitted review whose inputs changed is recomputed, and its deciders told, within minutes.
    "sweep-submitted-reviews": {"task": "scoring.sweep_submitted_reviews_task", "schedule": 300.0},
    "refresh-quarterly-cost-reviews": {
        "task": "scoring.refresh_quarterly_task",
        "schedule": crontab(hour=2, minute=30),
    },
    "sweep-outbox": {"task": "accounts.sweep_outbox_task", "schedule": 300.0},
    "sweep-webhooks": {"task": "notifications.sweep_webhooks_task", "schedule": 300.0},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}

if DJANGO_ENV == "test":
    # Tests: fast hashing; everything else stays as it is for the chosen stack.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
