from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Role
from apps.catalog.models import Tier
from apps.web.concurrency import VersionField
from apps.web.forms import FiniteFloatField

from . import thresholds
from .services import CURRENCY_RE, MAX_APPROVALS


class MemberAddForm(forms.Form):
    username_or_email = forms.CharField(
        label=_("Username or email"),
        max_length=254,
        help_text=_("They get an invitation and join once they accept it."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    role = forms.ChoiceField(
        label=_("Role"),
        choices=Role.choices,
        initial=Role.MEMBER,
        help_text=_("Members edit profiles and reviews; reviewers also sign off; owners also "
                    "manage the team."),
    )


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class TeamGeneralForm(forms.Form):
    approvals_required = forms.IntegerField(
        label=_("Approvals a review needs"),
        min_value=1,
        max_value=MAX_APPROVALS,
        help_text=_("Sign-offs by different reviewers before a review is approved (1 to 10). "
                    "Applies to reviews opened from now on."),
    )
    approvals_from_two_roles = forms.BooleanField(
        label=_("Approvals from two roles"),
        required=False,
        help_text=_("Separation of duties: a review is approved only by at least two approvals, "
                    "one from an owner and one from a reviewer. Applies to rounds submitted "
                    "from now on."),
    )
    sso_only = forms.BooleanField(
        label=_("Sign in with single sign-on only"),
        required=False,
        help_text=_("Members sign in through the company's identity provider, never with a "
                    "password (needs single sign-on configured: OIDC_ISSUER)."),
    )
    currency = forms.CharField(
        label=_("Currency"),
        min_length=3,
        max_length=3,
        help_text=_("ISO 4217 code, e.g. USD, EUR, CNY. Prices are entered in it; nothing is "
                    "converted."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "size": 4}),
    )
    # The settings' version the form was rendered with (apps.web.concurrency).
    version = VersionField()

    def clean_currency(self) -> str:
        value = self.cleaned_data["currency"].strip().upper()
        if not CURRENCY_RE.match(value):
            raise forms.ValidationError(
                _("Enter an ISO 4217 code: three capital letters, e.g. USD or CNY.")
            )
        return value


class ThresholdForm(forms.Form):
    key = forms.ChoiceField(choices=[(k, k) for k in thresholds.SPECS], widget=forms.HiddenInput)
    value = FiniteFloatField(label=_("Value"), widget=forms.NumberInput(attrs={"step": "any"}))

    def __init__(self, *args, keys: tuple[str, ...] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if keys is not None:
            self.fields["key"].choices = [(k, k) for k in keys]


class TierForm(forms.Form):
    tier = forms.ChoiceField(choices=Tier.choices)
