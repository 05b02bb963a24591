"""Profile names once per team (any case): existing duplicates are renamed first, the oldest
profile keeping its name and each later one taking the first free " (2)", " (3)"… suffix."""

import django.db.models.functions.text
from django.db import migrations, models

NAME_MAX = 160  # TaskProfile.name's max_length


def free_name(base: str, taken: set[str]) -> str:
    for n in range(2, 10_000):
        suffix = f" ({n})"
        candidate = base[: NAME_MAX - len(suffix)] + suffix
        if candidate.lower() not in taken:
            return candidate
    raise RuntimeError(f"no free name for {base!r}")


def rename_duplicates(apps, schema_editor):
    TaskProfile = apps.get_model("profiles", "TaskProfile")
    rows = TaskProfile.objects.order_by("team_id", "id").values_list("id", "team_id", "name")
    by_team: dict[int, list[tuple[int, str]]] = {}
    for pk, team_id, name in rows:
        by_team.setdefault(team_id, []).append((pk, name))
    for profiles in by_team.values():
        taken = {name.lower() for _pk, name in profiles}
        seen: set[str] = set()
        for pk, name in profiles:
            if name.lower() in seen:
                name = free_name(name, taken)
                taken.add(name.lower())
                TaskProfile.objects.filter(pk=pk).update(name=name)
            seen.add(name.lower())


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0008_attention_and_restart_hours"),
    ]

    operations = [
        migrations.RunPython(rename_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="taskprofile",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("name"),
                models.F("team"),
                name="profile_name_once_per_team",
            ),
        ),
    ]
