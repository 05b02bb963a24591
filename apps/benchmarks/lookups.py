"""The team's tasks, offers and sites as a benchmark record names them (an id, or a name or site
code), fetched once per field and id, or all at once for a CSV file: never another team's."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.catalog.models import Offer, Site
from apps.profiles.models import TaskProfile


@dataclass
class TeamLookups:
    """The team's tasks, offers and sites, fetched once per field and id (or all at once)."""

    team: Team
    tasks: dict[int, TaskProfile] = field(default_factory=dict)
    offers: dict[int, Offer] = field(default_factory=dict)
    sites: dict[int, Site] = field(default_factory=dict)
    complete: bool = False

    def preload(self) -> TeamLookups:
        """Load everything in three queries: for a CSV file of many rows."""
        self.tasks = {t.pk: t for t in TaskProfile.objects.filter(team=self.team)}
        self.offers = {o.pk: o for o in Offer.objects.filter(team=self.team)}
        self.sites = {s.pk: s for s in Site.objects.filter(team=self.team)}
        self.complete = True
        return self

    def _by_id(self, cache: dict, model, pk: int):
        if pk not in cache and not self.complete:
            obj = model.objects.filter(team=self.team, pk=pk).first()
            if obj is not None:
                cache[pk] = obj
        return cache.get(pk)

    def _by_name(self, cache: dict, model, name: str, attr: str, label):
        """Match on a natural name (case-insensitive); ambiguity is an error, not a guess."""
        if not self.complete:
            for obj in model.objects.filter(team=self.team, **{f"{attr}__iexact": name}):
                cache[obj.pk] = obj
        found = [o for o in cache.values() if label(o).casefold() == name.casefold()]
        if len(found) > 1:
            raise ValueError(_("Ambiguous name: give the id instead."))
        return found[0] if found else None

    def task(self, value) -> TaskProfile | None:
        return self._resolve(value, TaskProfile, self.tasks, "name", lambda o: o.name)

    def offer(self, value) -> Offer | None:
        return self._resolve(value, Offer, self.offers, "name", lambda o: o.name)

    def site(self, value) -> Site | None:
        if isinstance(value, Site):
            return value if value.team_id == self.team.pk else None
        text = str(value).strip()
        by_code = self._by_name(self.sites, Site, text, "code", lambda o: o.code)
        if by_code is not None or not _is_id(text):
            return by_code
        return self._by_id(self.sites, Site, int(text))

    def _resolve(self, value, model, cache, attr, label):
        if isinstance(value, model):
            return value if value.team_id == self.team.pk else None
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return self._by_id(cache, model, value)
        text = str(value).strip()
        if _is_id(text):
            return self._by_id(cache, model, int(text))
        return self._by_name(cache, model, text, attr, label)


def _is_id(text: str) -> bool:
    """ASCII digits only: "²" or "١" pass str.isdigit() but are no id (int() refuses the first)."""
    return text.isascii() and text.isdigit()
