"""`python manage.py evaluate FILE.json` (`-` reads stdin): print the engine's output JSON.

Bad input: exit code 2 and every problem, with its field path, on stderr. Never a traceback.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from apps.scoring import engine


class Command(BaseCommand):
    help = "Evaluate an engine input (SPEC section 4) and print the output JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to the input JSON, or - for standard input")
        parser.add_argument("--indent", type=int, default=2, help="JSON indent (0: compact)")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as exc:
            self._fail([f"cannot read {path}: {exc.strerror or exc}"])
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            self._fail([f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"])
        try:
            output = engine.evaluate(data)
        except engine.EngineInputError as exc:
            self._fail([f"{e['field'] or '(input)'}: {e['message']}" for e in exc.errors])
        indent = options["indent"] or None
        self.stdout.write(json.dumps(output, indent=indent, ensure_ascii=False))

    def _fail(self, lines: list[str]) -> None:
        sys.stderr.write("error: the input is not valid:\n")
        for line in lines:
            sys.stderr.write(f"  - {line}\n")
        sys.stderr.flush()
        raise SystemExit(2)
