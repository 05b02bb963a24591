FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext curl \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The release in the cache's keys (config/settings.py): `--build-arg RELEASE_ID=$(git rev-parse
# HEAD)`; without it, a hash of the templates' modification times.
ARG RELEASE_ID=""
ENV RELEASE_ID=$RELEASE_ID
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
# collectstatic only reads files; a throwaway key lets the settings load during the build.
RUN DJANGO_ENV=production DJANGO_SECRET_KEY=build-only-key-not-used-at-runtime-0123456789abcdefghij \
    DJANGO_ALLOWED_HOSTS=build python manage.py collectstatic --noinput
RUN useradd --create-home app && chown -R app /app
USER app
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "2", "--access-logfile", "-"]
