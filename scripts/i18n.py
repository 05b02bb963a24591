#!/usr/bin/env python
"""Refresh the message catalogs: extract, fill Simplified Chinese, compile.

Translations are kept as JSON files, one per app, in locale/zh_Hans/strings/*.json
({"English msgid": "中文"}), so that several people can add strings without editing one .po file
at the same time. This script runs makemessages, writes every known translation into the .po,
lists the msgids still missing, and compiles the .mo files that are committed.

Usage: python scripts/i18n.py [--check]   (--check: exit 1 if a msgid has no translation)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
STRINGS = ROOT / "locale" / "zh_Hans" / "strings"


def manage(*args: str) -> None:
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings")
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
        stdout=subprocess.DEVNULL,
    )


def load_strings() -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted(STRINGS.glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def po_unquote(chunks: list[str]) -> str:
    raw = "".join(c[1:-1] for c in chunks)
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), raw)


def fill(po_text: str, strings: dict[str, str]) -> tuple[str, list[str]]:
    """Rewrite msgstr of each entry from `strings`; return the new text and missing msgids."""
    entries = po_text.split("\n\n")
    out, missing = [], []
    for entry in entries:
        lines = entry.split("\n")
        # makemessages' fuzzy guesses are not translations: drop the flag (and the guess below).
        lines = [ln for ln in lines if ln != "#, fuzzy" and not ln.startswith("#| ")]
        lines = [ln.replace("#, fuzzy, ", "#, ") for ln in lines]
        try:
            i_id = next(i for i, ln in enumerate(lines) if ln.startswith("msgid "))
        except StopIteration:
            out.append("\n".join(lines))
            continue
        if any(ln.startswith("msgid_plural") for ln in lines):
            # Plurals: Chinese has one form; use the translation of the singular for msgstr[0].
            i_plural = next(i for i, ln in enumerate(lines) if ln.startswith("msgid_plural"))
            msgid = po_unquote([lines[i_id][6:]] + [ln for ln in lines[i_id + 1:i_plural]])
            i_str = next(i for i, ln in enumerate(lines) if ln.startswith("msgstr"))
            if msgid in strings:
                lines = lines[:i_str] + ["msgstr[0] " + po_quote(strings[msgid])]
            elif msgid:
                lines = lines[:i_str] + ['msgstr[0] ""']
                missing.append(msgid)
            out.append("\n".join(lines))
            continue
        i_str = next(i for i, ln in enumerate(lines) if ln.startswith("msgstr "))
        msgid = po_unquote([lines[i_id][6:]] + lines[i_id + 1:i_str])
        if msgid == "":
            out.append("\n".join(lines))  # the header
            continue
        if msgid in strings:
            lines = lines[:i_str] + ["msgstr " + po_quote(strings[msgid])]
        else:
            # The JSON files are the only source of translations: anything else is a guess.
            lines = lines[:i_str] + ['msgstr ""']
            missing.append(msgid)
        out.append("\n".join(lines))
    return "\n\n".join(out), missing


def main() -> int:
    check = "--check" in sys.argv
    ignore = ["--ignore=.venv/*", "--ignore=staticfiles/*", "--ignore=var/*", "--ignore=tests/*"]
    manage("makemessages", "-l", "zh_Hans", "-l", "en", "--no-obsolete", *ignore)
    text = PO.read_text(encoding="utf-8")
    text = text.replace(
        "Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;", "Plural-Forms: nplurals=1; plural=0;"
    )
    text = re.sub(r'"Language: \\n"', '"Language: zh_Hans\\\\n"', text)
    text, missing = fill(text, load_strings())
    PO.write_text(text, encoding="utf-8")
    manage("compilemessages", "--ignore=.venv")
    for msgid in missing:
        print(f"untranslated: {msgid!r}")
    print(f"{len(missing)} untranslated msgid(s)")
    return 1 if (check and missing) else 0


if __name__ == "__main__":
    raise SystemExit(main())
