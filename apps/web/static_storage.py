"""Static files as production serves them (WhiteNoise: hashed names, compressed copies), each
name's URL worked out once per process.

Every page draws eight to ten `{% static %}` URLs; each cost ~15 µs (the manifest lookup, URL
splitting and quoting), about 4 % of a cached page. The manifest is read once when the storage
is made and does not change while the process runs, so neither does a name's URL.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name, force=False):
        if force:
            return super().url(name, force)
        try:
            return self._urls[name]
        except KeyError:
            url = self._urls[name] = super().url(name)
            return url
