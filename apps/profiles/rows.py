"""The profile list's rows drawn in Python (apps/web/rows.py): the markup profiles/list.html drew
with a template per cell, checked against it by tests/profiles/test_list_rows.py."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from apps.web.rows import choice_labels, date, figure, text

from .models import TaskProfile

_ROW = (
    "\n        <tr>\n"
    '          <td><a href="{url}"><strong>{name}</strong></a>{badge}</td>\n'
    "          <td>{workload}</td>\n"
    '          <td class="num" data-value="{params_value}">{params}</td>\n'
    "          <td>{precision}</td>\n"
    '          <td class="num" data-value="{hours_value}">{hours} h</td>\n'
    "          <td><code>{data_site}</code>{home_site}</td>\n"
    '          <td data-value="{updated}"><time datetime="{updated}">{updated_at}</time></td>\n'
    "        </tr>\n        "
)


def profile_rows(profiles: Iterable[TaskProfile]) -> SafeString:
    """The table rows of `profiles` (read with profiles.selectors.LIST_FIELDS), in the active
    language."""
    badge = f' <span class="badge">{text(gettext("Recurring"))}</span>'
    workloads = choice_labels(TaskProfile, "workload")
    rows = []
    for p in profiles:
        home = ""
        if p.home_site_id != p.data_site_id:
            home = f" → <code>{text(p.home_site.code)}</code>"
        updated = date(p.updated_at, "c")
        rows.append(
            _ROW.format(
                url=text(reverse("profiles:detail", args=[p.pk])),
                name=text(p.name),
                badge=badge if p.cadence == "recurring" else "",
                workload=text(workloads.get(p.workload, p.workload)),
                params_value="" if p.params_b is None else text(p.params_b),
                params="—" if p.params_b is None else f"{text(figure(p.params_b, 1))} B",
                precision=text(p.precision),
                hours_value=text(p.compute_hours),
                hours=text(figure(p.compute_hours, 1)),
                data_site=text(p.data_site.code),
                home_site=home,
                updated=updated,
                updated_at=date(p.updated_at, "Y-m-d H:i"),
            )
        )
    return mark_safe("".join(rows))
