"""Optimistic concurrency for every editable object (issue 17): no save silently overwrites another.

One mechanism for profiles, sites, links, offers, benchmark records and the team's general
settings (reviews have their own, older one in apps.reviews.workflow):

- the model has `version` (1 by default, in the database too, so a row written without it,
  by older code or a historical migration state, starts at 1), bumped by every write;
- the edit form carries the version it was rendered with in a hidden `VersionField`
  (`add_version_field`, or `VersionedFormMixin` for a ModelForm);
- the service calls `claim(obj, version)` inside its transaction before it saves: one conditional
  ``UPDATE … SET version = version + 1 WHERE pk = … AND version = <seen>``. The UPDATE holds the
  row until the transaction ends, so of two saves made on one version exactly one wins; the other
  finds no row, raises `StaleVersion` and changes nothing. No version given (an older client, an
  internal caller): not checked, but still bumped;
- the view answers the loser with `stale_form`: the form again, status 409 (in place for htmx),
  pre-filled with the user's values and the current version, and `form.conflict` listing field by
  field what they sent against what is stored now. Saving that form re-applies their values on
  purpose; cancelling keeps the stored ones. Nothing is lost without the user seeing it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F
from django.utils.translation import gettext as _

VERSION = "version"
# A version the form could not read: never the stored one, so the save is a conflict (shown with
# the fresh version) rather than an invisible error on a hidden field.
UNREADABLE = -1
MAX_SHOWN = 200


class StaleVersion(Exception):
    """The object changed (or went) since the caller read its version; nothing was written."""

    def __init__(self, obj: models.Model):
        super().__init__(f"{type(obj).__name__} {obj.pk}: stale version")
        self.obj = obj


class VersionField(forms.Field):
    """The version an edit form was rendered with (hidden). Empty: not checked."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value) -> int | None:
        if value in self.empty_values:
            return None
        try:
            number = int(str(value).strip())
        except (TypeError, ValueError):
            return UNREADABLE
        # Anything no version column holds is simply not the stored version.
        return number if 0 <= number < 2**31 else UNREADABLE


def add_version_field(form: forms.BaseForm, version: int) -> None:
    """Give `form` the hidden version of the object it edits."""
    form.fields[VERSION] = VersionField(initial=version)


class VersionedFormMixin:
    """For a ModelForm: the hidden version of the instance it edits (none on a create form)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            add_version_field(self, self.instance.version)


def claim(obj: models.Model, version: int | None) -> None:
    """Take the next version of `obj` if the stored one is still `version` (None: any), inside the
    caller's transaction; StaleVersion otherwise. Sets `obj.version` to the new version, so the
    caller's save() writes it."""
    rows = type(obj)._base_manager.filter(pk=obj.pk)
    if version is not None:
        rows = rows.filter(version=version)
    if not rows.update(version=F(VERSION) + 1):
        raise StaleVersion(obj)
    if version is None:
        version = type(obj)._base_manager.values_list(VERSION, flat=True).get(pk=obj.pk) - 1
    obj.version = version + 1


# What the loser of a race sees


@dataclass(frozen=True)
class Change:
    field: str
    label: str
    yours: str
    stored: str


@dataclass(frozen=True)
class Conflict:
    version: int
    changes: list[Change] = field(default_factory=list)


def _key(value):
    """A comparable form of a cleaned value: objects by pk, lists in any order, blanks alike."""
    if value is None or value == "":
        return None
    if isinstance(value, models.Model):
        return ("pk", value.pk)
    if isinstance(value, models.QuerySet | list | tuple | set):
        keys = sorted(repr(_key(v)) for v in value)
        return tuple(keys) or None
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return float(value)
    return value


def _choice_labels(form_field: forms.Field) -> dict:
    if isinstance(form_field, forms.ModelChoiceField) or not hasattr(form_field, "choices"):
        return {}
    labels = {}
    for value, label in form_field.choices:
        if isinstance(label, list | tuple):  # an optgroup
            labels.update({str(v): lbl for v, lbl in label})
        else:
            labels[str(value)] = label
    return labels


def shown(form_field: forms.Field, value) -> str:
    """A cleaned value as the user reads it."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, models.QuerySet | list | tuple | set):
        return ", ".join(shown(form_field, v) for v in value) or "—"
    if isinstance(value, float):
        return f"{value:.12g}"
    labels = _choice_labels(form_field)
    text = str(labels.get(str(value), value))
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def _stored_value(stored_form: forms.BaseForm, name: str):
    """The stored object's value of one field, cleaned as the form cleans a post."""
    raw = stored_form[name].value()
    try:
        return stored_form.fields[name].clean(raw)
    except ValidationError:
        return raw


def differences(form: forms.BaseForm, stored_form: forms.BaseForm) -> list[Change]:
    """Field by field, where the user's (valid) post differs from the stored object, in form
    order. `stored_form` is the same form, unbound, for the object as it is stored now."""
    changes = []
    for name, form_field in form.fields.items():
        if name == VERSION or name not in form.cleaned_data or name not in stored_form.fields:
            continue
        yours = form.cleaned_data[name]
        stored = _stored_value(stored_form, name)
        if _key(yours) != _key(stored):
            label = str(form_field.label or name)
            changes.append(Change(name, label, shown(form_field, yours), shown(form_field, stored)))
    return changes


def stale_form(
    form: forms.BaseForm, factory: Callable[[dict | None], forms.BaseForm]
) -> forms.BaseForm:
    """After StaleVersion: `factory(None)` is the unbound form of the object as stored now (with
    its version field), `factory(data)` the same form bound to `data`. Returns the form bound to
    the user's post with the current version, its `conflict` saying what differs."""
    stored_form = factory(None)
    version = stored_form[VERSION].initial
    changes = differences(form, stored_form)
    data = form.data.copy()
    data[form.add_prefix(VERSION)] = str(version)
    fresh = factory(data)
    fresh.is_valid()
    fresh.conflict = Conflict(version=version, changes=changes)
    return fresh
