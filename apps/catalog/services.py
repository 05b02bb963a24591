"""Writes of the catalog: sites, network links and offers.

Each write validates with full_clean() (finite numbers, same-team sites, contract terms), so a
service called from anywhere leaves no invalid row. An update claims the version the editor saw
(apps.web.concurrency): a save made on an older version changes nothing. Deleting something that
reviews, profiles or benchmarks use is refused with `InUseError`, and nothing is deleted.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import models, transaction
from django.db.models.deletion import ProtectedError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from apps.accounts.models import Team
from apps.web.concurrency import claim

from .models import NetworkLink, Offer, Site


class InUseError(Exception):
    """The object is still used; `message` names what uses it, in the user's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _count_phrase(label: str, count: int) -> str:
    """ "3 reviews": the translated noun for each kind of object that can hold a PROTECT."""
    phrases = {
        "reviews.Review": lambda n: ngettext("%(n)d review", "%(n)d reviews", n),
        # One candidate row per review and offer (unique), so candidates count reviews.
        "reviews.Candidate": lambda n: ngettext(
            "%(n)d review (as a candidate)", "%(n)d reviews (as a candidate)", n
        ),
        "profiles.TaskProfile": lambda n: ngettext("%(n)d task profile", "%(n)d task profiles", n),
        # One row per profile and site (unique), so allowed-site rows count profiles.
        "profiles.AllowedSite": lambda n: ngettext(
            "%(n)d task profile (as an allowed site)", "%(n)d task profiles (as an allowed site)", n
        ),
        "benchmarks.BenchmarkRecord": lambda n: ngettext(
            "%(n)d benchmark record", "%(n)d benchmark records", n
        ),
        "catalog.NetworkLink": lambda n: ngettext("%(n)d network link", "%(n)d network links", n),
        "catalog.Offer": lambda n: ngettext("%(n)d offer", "%(n)d offers", n),
        "reviews.EvaluationSnapshot": lambda n: ngettext(
            "%(n)d evaluation snapshot", "%(n)d evaluation snapshots", n
        ),
    }
    phrase = phrases.get(label)
    if phrase is None:
        return f"{count} {label}"
    return phrase(count) % {"n": count}


def users_of(objects) -> str:
    """ "2 reviews (as a candidate), 1 task profile": what protects an object."""
    counts: Counter = Counter(obj._meta.label for obj in objects)
    separator = pgettext("list separator", ", ")
    return separator.join(_count_phrase(label, counts[label]) for label in sorted(counts))


def delete_or_refuse(obj: models.Model, label: str) -> None:
    """Delete `obj`, or raise InUseError naming what still uses it (nothing is deleted)."""
    try:
        with transaction.atomic():
            obj.delete()
    except ProtectedError as exc:
        raise InUseError(
            _("%(object)s cannot be deleted: it is used by %(users)s. Remove those first.")
            % {"object": label, "users": users_of(exc.protected_objects)}
        ) from exc


def _apply(instance: models.Model, fields: dict[str, Any]) -> None:
    for name, value in fields.items():
        setattr(instance, name, value)


# Sites


def site_create(*, team: Team, **fields: Any) -> Site:
    site = Site(team=team)
    _apply(site, fields)
    site.full_clean()
    site.save()
    return site


@transaction.atomic
def site_update(*, site: Site, version: int | None = None, **fields: Any) -> Site:
    """StaleVersion (nothing written) when `version` is not the stored one."""
    claim(site, version)
    _apply(site, fields)
    site.full_clean()
    site.save()
    return site


def site_delete(*, site: Site) -> None:
    delete_or_refuse(site, _("Site %(code)s") % {"code": site.code})


# Network links


def link_create(*, team: Team, **fields: Any) -> NetworkLink:
    link = NetworkLink(team=team)
    _apply(link, fields)
    link.full_clean()
    link.save()
    return link


@transaction.atomic
def link_update(*, link: NetworkLink, version: int | None = None, **fields: Any) -> NetworkLink:
    """StaleVersion (nothing written) when `version` is not the stored one."""
    claim(link, version)
    _apply(link, fields)
    link.full_clean()
    link.save()
    return link


def link_delete(*, link: NetworkLink) -> None:
    label = _("Link %(link)s") % {"link": str(link)}
    # A reservation on a review is a use too, though the database would drop it silently.
    reviews = link.reserved_by_reviews.count()
    if reviews:
        raise InUseError(
            ngettext(
                "%(object)s cannot be deleted: %(count)d review reserved a channel on it.",
                "%(object)s cannot be deleted: %(count)d reviews reserved a channel on it.",
                reviews,
            )
            % {"object": label, "count": reviews}
        )
    delete_or_refuse(link, label)


# Offers


def offer_create(*, team: Team, **fields: Any) -> Offer:
    offer = Offer(team=team)
    _apply(offer, fields)
    offer.full_clean()
    offer.save()
    return offer


@transaction.atomic
def offer_update(*, offer: Offer, version: int | None = None, **fields: Any) -> Offer:
    """StaleVersion (nothing written) when `version` is not the stored one."""
    claim(offer, version)
    _apply(offer, fields)
    offer.full_clean()
    offer.save()
    return offer


def offer_delete(*, offer: Offer) -> None:
    delete_or_refuse(offer, _("Offer %(name)s") % {"name": str(offer)})
