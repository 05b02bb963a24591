"""`python manage.py model_shape config.json [--json]`: a model's shape (hidden size, layers,
heads, key/value heads, parameters) from its Hugging Face config.json, for a task profile.
A config it cannot read exits with code 2 and names the missing or wrong key."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.profiles.model_config import MAX_CONFIG_BYTES, ModelConfigError, model_shape_from_text


class Command(BaseCommand):
    help = "Print a model's shape and parameter count from its Hugging Face config.json."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the model's config.json")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            if path.stat().st_size > MAX_CONFIG_BYTES:
                raise CommandError(f"{path}: larger than 1 MB, not a model config", returncode=2)
            shape = model_shape_from_text(path.read_bytes())
        except OSError as exc:
            reason = exc.strerror or exc
            raise CommandError(f"{path}: cannot be read ({reason})", returncode=2) from exc
        except ModelConfigError as exc:
            raise CommandError(f"{path}: {exc}", returncode=2) from exc
        if options["json"]:
            self.stdout.write(json.dumps(shape.as_json(), indent=2))
            return
        self.stdout.write(
            f"{shape.model_type}: hidden size {shape.hidden_size}, {shape.layers} layers, "
            f"{shape.heads} heads ({shape.kv_heads} key/value), {shape.params:,} parameters "
            f"({shape.params_b:g} B)"
        )
