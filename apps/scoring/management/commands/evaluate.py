"""`python manage.py evaluate FILE.json` (`-` reads stdin): print the engine's output JSON.

Bad input (a file that cannot be read, text that is not UTF-8 JSON, a value that is not an
object, an input the engine refuses): exit code 2 and every problem, with its field path, on
stderr. Never a traceback. The input may be up to 64 MB (`--max-bytes`), not the API's 2 MB:
see docs/decisions.md.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

import engine

# Far above any input within SPEC 6.2's list limits, even pretty-printed; still a bound, so a
# wrong path (a device, a dump) fails with exit 2 instead of filling memory.
MAX_INPUT_BYTES = 64 * 1024 * 1024
JSON_TYPES = {list: "an array", str: "a string", bool: "a boolean", int: "a number",
              float: "a number", type(None): "null"}  # fmt: skip


class Command(BaseCommand):
    help = "Evaluate an engine input (SPEC section 4) and print the output JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to the input JSON, or - for standard input")
        parser.add_argument("--indent", type=int, default=2, help="JSON indent (0: compact)")
        parser.add_argument(
            "--max-bytes",
            type=int,
            default=MAX_INPUT_BYTES,
            help=f"refuse a larger input (default {MAX_INPUT_BYTES // (1024 * 1024)} MB)",
        )

    def handle(self, *args, **options):
        path = options["file"]
        raw = self._read(path, options["max_bytes"])
        data = self._decode(raw)
        if not isinstance(data, dict):
            self._fail([f"(input): must be a JSON object, not {JSON_TYPES[type(data)]}"])
        try:
            output = engine.evaluate(data)
        except engine.EngineInputError as exc:
            # The engine names every field, at most 100 of them then "… and N more" (SPEC 6.2).
            self._fail([f"{e['field'] or '(input)'}: {e['message']}" for e in exc.errors])
        indent = options["indent"] or None
        self.stdout.write(json.dumps(output, indent=indent, ensure_ascii=False))

    def _read(self, path: str, limit: int) -> bytes:
        """At most `limit` + 1 bytes: enough to know the input is too large, never all of it."""
        try:
            if path == "-":
                stream = getattr(sys.stdin, "buffer", None)
                raw = stream.read(limit + 1) if stream else sys.stdin.read(limit + 1).encode()
            else:
                with open(path, "rb") as handle:
                    raw = handle.read(limit + 1)
        except OSError as exc:
            self._fail([f"cannot read {path}: {exc.strerror or exc}"])
        if len(raw) > limit:
            self._fail([f"(input): larger than {limit} bytes (--max-bytes)"])
        return raw

    def _decode(self, raw: bytes) -> Any:
        try:
            return json.loads(raw)  # bytes: UTF-8 (with or without a BOM), UTF-16 or UTF-32
        except json.JSONDecodeError as exc:
            self._fail([f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"])
        except UnicodeDecodeError:
            self._fail(["not valid JSON: the input is not UTF-8 text"])
        except RecursionError:
            self._fail(["not valid JSON: nested too deeply"])

    def _fail(self, lines: list[str]) -> None:
        sys.stderr.write("error: the input is not valid:\n")
        for line in lines:
            sys.stderr.write(f"  - {line}\n")
        sys.stderr.flush()
        raise SystemExit(2)
