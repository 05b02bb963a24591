"""A file imported from the command line, the one way (`import_bill`, `import_offers`): the team
named by its name or id, the file read as UTF-8 within the size cap, and bad input answered
with exit code 2 naming what is wrong."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError

from apps.accounts.models import Team

from ..limits import MAX_BYTES


def bad_input(message: str) -> CommandError:
    return CommandError(message, returncode=2)


def team_named(value: str) -> Team:
    """The team whose id or name is `value`; exit code 2 unless exactly one."""
    found = Team.objects.filter(pk=int(value)) if value.isascii() and value.isdigit() else None
    found = found if found is not None and found.exists() else Team.objects.filter(name=value)
    teams = list(found[:2])
    if len(teams) != 1:
        raise bad_input(f"--team: no single team named or numbered {value!r}")
    return teams[0]


def read_text_file(path: str, *, too_large: str = "split it") -> str:
    """The file's text (UTF-8, a byte-order mark dropped); exit code 2 when it cannot be read,
    is not UTF-8 or is over the 2 MB cap (`too_large` says what to do then)."""
    file = Path(path)
    try:
        if file.stat().st_size > MAX_BYTES:
            raise bad_input(
                f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB; {too_large}"
            )
        return file.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise bad_input(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise bad_input(f"{path}: not UTF-8 text") from exc
