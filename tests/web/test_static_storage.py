"""Production's static storage works out each name's URL once per process
(apps/web/static_storage.py): the manifest's hashed name, as WhiteNoise's storage gives it."""

from __future__ import annotations

import json

import pytest

from apps.web.static_storage import StaticStorage


@pytest.fixture
def storage(tmp_path, settings):
    settings.DEBUG = False
    manifest = {"paths": {"css/app.css": "css/app.0123abcd.css"}, "version": "1.1", "hash": "x"}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    return StaticStorage(location=tmp_path, base_url="/static/")


def test_a_name_is_its_hashed_url_looked_up_once(storage, monkeypatch):
    looked_up = []
    stored_name = storage.stored_name

    def counting(name):
        looked_up.append(name)
        return stored_name(name)

    monkeypatch.setattr(storage, "stored_name", counting)
    assert storage.url("css/app.css") == storage.url("css/app.css") == "/static/css/app.0123abcd.css"
    assert looked_up == ["css/app.css"]
    assert storage.url("css/app.css", force=True) == "/static/css/app.0123abcd.css"
    assert looked_up == ["css/app.css", "css/app.css"]  # force: worked out again


def test_a_name_missing_from_the_manifest_is_refused_every_time(storage):
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("css/missing.css")
