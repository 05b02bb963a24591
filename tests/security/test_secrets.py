"""No secret in the repository, production refuses debug mode, and no page loads anything from
another origin."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.test_settings import SECRET, run_manage
from tests.workers import ROOT

SKIPPED_DIRS = {".git", ".venv", "var", "staticfiles", "node_modules", ".pytest_cache",
                ".ruff_cache", ".hypothesis", "__pycache__"}
TEXT_SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".txt", ".toml", ".yml", ".yaml", ".json",
                 ".cfg", ".ini", ".sh", ".env", ""}
LEAKS = {
    "private key": re.compile(r"-----BEGIN (?:RSA |EC |DSA |OPENSSH )?PRIVATE KEY-----"),
    "AWS access key": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    "team API token": re.compile(r"\bcsr_[A-Za-z0-9_-]{43}\b"),
    "hard-coded SECRET_KEY": re.compile(r"^\s*SECRET_KEY\s*=\s*['\"][^'\"]{20,}['\"]", re.M),
}


def repository_files():
    """The files that are or could be committed: tracked, or untracked and not ignored (a
    virtualenv or a tool's cache is neither, whatever its name)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        path = Path(ROOT) / name
        parts = set(Path(name).parts)
        if parts & SKIPPED_DIRS or not path.is_file() or path.suffix not in TEXT_SUFFIXES:
            continue
        if path.stat().st_size > 2_000_000:  # vendored bundles: no secrets, slow to scan
            continue
        yield path


class SecretsTests:
    def test_no_secret_is_committed(self):
        found = []
        for path in repository_files():
            text = path.read_text(errors="ignore")
            found += [f"{path.relative_to(ROOT)}: {name}" for name, rx in LEAKS.items()
                      if rx.search(text)]
        assert not found, found

    def test_the_local_secret_key_lives_in_an_ignored_directory(self):
        ignored = (Path(ROOT) / ".gitignore").read_text().split()
        assert "/var/" in ignored  # where settings.py writes the generated development key
        assert ".env" not in {p.name for p in Path(ROOT).iterdir()}

    def test_production_refuses_debug(self):
        out = run_manage(
            "check", DJANGO_ENV="production", DJANGO_DEBUG="1", DJANGO_SECRET_KEY=SECRET,
            DJANGO_ALLOWED_HOSTS="reviews.example.com",
        )
        assert out.returncode != 0
        assert "DJANGO_DEBUG cannot be on when DJANGO_ENV=production" in out.stderr


ASSET = re.compile(r"<(script|link|img|iframe|source|video|audio)\b[^>]*\b(?:src|href)=[\"']"
                   r"(?:https?:)?//", re.I)


class ThirdPartyAssetTests:
    """No page loads a script, style, font or image from another origin (no CDN to trust)."""

    @pytest.mark.django_db
    def test_no_page_loads_an_asset_from_another_origin(self):
        from django.test import Client
        from django.urls import reverse

        from tests.security.helpers import build_world
        from tests.security.test_authz_matrix import MATRIX

        world = build_world()
        client = Client(raise_request_exception=False)
        client.force_login(world.a.owner)
        checked, found = 0, []
        for name, route in sorted(MATRIX.items()):
            if "GET" not in route.methods or route.fixed is not None:
                continue
            url = reverse(name, kwargs=route.obj(world.a) if route.obj else None)
            response = client.get(url)
            if "text/html" in response.get("Content-Type", ""):
                checked += 1
                found += [f"{name}: {m.group(0)}" for m in ASSET.finditer(response.text)]
        assert checked > 40
        assert not found, found
